using System.Net.WebSockets;

namespace ProtocolBench.Integration.Tests;

/// <summary>
/// Fault table row 78, rows 60 and 68 on SignalR: 100 WebSockets, each asking the hub for the PDF or for 1 MiB of
/// control characters (6 MiB of JSON) and never reading. The hub answers a connection's invocations one at a time, so
/// each holds one answer, but a hundred connections held a hundred (+2 GB for the clones); now the answers are reserved
/// from the response budget and held until sent, and while others wait a connection that stops sending its answer is
/// closed. The service stays within +256 MiB, comes back within 64 MiB 10 s later, and a reader that reads gets the PDF
/// meanwhile, and one that reads slowly keeps its answer (row 85).
/// </summary>
[Collection(SqliteCollection.Name)]
public sealed class StalledHubReaderTests(SqliteServices fixture)
{
    private const int Connections = 100;

    [Theory]
    [InlineData("pdf")]
    [InlineData("control characters")]
    public async Task HubReadersThatNeverReadCannotHoldTheServicesMemory(string answer)
    {
        var service = fixture.Services.Processes.Single(p => p.Spec.Protocol == Protocol.SignalR);
        var invocation = answer == "pdf" ? "\"target\":\"GetPdf\",\"arguments\":[]" : RawHub.ReservedClone;
        var client = fixture.Client(Protocol.SignalR, Transport.Http);
        var unloaded = await CallTiming.MedianSecondsAsync(() => client.GetPdfAsync(Token));

        var stalled = new List<(ClientWebSocket Socket, HttpMessageInvoker Invoker)>();
        double loaded = 0;
        long before;
        try
        {
            var memory = await PeakMemory.DuringAsync(service, async () =>
            {
                for (var i = 0; i < Connections; i++)
                {
                    stalled.Add(await StalledAsync(invocation));
                }

                // The answers are built and would be held while nobody reads them; a reader that reads is served beside them.
                await Task.Delay(TimeSpan.FromSeconds(1), Token);
                loaded = await CallTiming.MedianSecondsAsync(async () => Assert.Equal(Expected.Pdf, await client.GetPdfAsync(Token)));
                await Task.Delay(TimeSpan.FromSeconds(1), Token);
            });
            TestContext.Current.TestOutputHelper?.WriteLine(
                $"SignalR {answer}: {Connections} stalled WebSockets, memory {memory}; the PDF in {unloaded:F3} s unloaded, {loaded:F3} s beside them (median of 5)");
            Assert.True(memory.GrowthMiB < PeakMemory.BoundMiB, $"SignalR grew by {memory} under stalled readers.");
            Assert.True(loaded <= (2 * unloaded) + 1, $"{loaded:F2} s for the PDF beside {Connections} stalled WebSockets, {unloaded:F3} s unloaded.");
            before = memory.BeforeMiB;
        }
        finally
        {
            foreach (var (socket, invoker) in stalled)
            {
                socket.Abort();
                socket.Dispose();
                invoker.Dispose();
            }
        }

        var (after, settled) = await PeakMemory.SettledAsync(service, before, Token);
        TestContext.Current.TestOutputHelper?.WriteLine($"SignalR {answer}: {after} MiB resident {settled:F1} s later (+{after - before})");
        Assert.True(after - before <= PeakMemory.BackWithinMiB, $"SignalR {answer}: {after} MiB resident 10 s after the burst, {before} MiB before it.");
        Assert.False(service.HasExited);
        Assert.Equal(Expected.Pdf, await fixture.Client(Protocol.SignalR, Transport.Https).GetPdfAsync(Token));
    }

    /// <summary>
    /// Fault table row 90: one JSON hub client reading the PDF at 64 KiB/s, with nothing else on the service. SignalR's
    /// transport gives one send 10 s (the hub's whole answer is one send), so it closed the connection without a close frame
    /// at 10.6 s, after 0.70 MB. Now a send has 192 s (SignalRApiExtensions.SendTimeout): the reader reads at
    /// its pace for 14 s, past the old cut, then at full speed, and gets the whole PDF.
    /// </summary>
    [Fact]
    public async Task AHubReaderAt64KiBPerSecondIsNotCut()
    {
        var slow = Stopwatch.StartNew();
        using var pacedSockets = new HttpMessageInvoker(PacedReading.Handler(64 * 1024, TimeSpan.FromSeconds(14)));
        using var hub = await RawHub.OpenAsync(RawHub.Address(fixture.Addresses.BaseUri(Protocol.SignalR, Transport.Http)), "json", Token, pacedSockets);
        var answer = await hub.InvokeAsync("1", "\"target\":\"GetPdf\",\"arguments\":[]", Token, TimeSpan.FromSeconds(60));

        Assert.True(answer is not null, $"The reader's connection was closed after {slow.Elapsed.TotalSeconds:F1} s.");
        Assert.Equal(Expected.Pdf, Convert.FromBase64String(System.Text.Json.Nodes.JsonNode.Parse(answer)!["result"]!["data"]!.GetValue<string>()));
        TestContext.Current.TestOutputHelper?.WriteLine($"SignalR JSON: the PDF read at 64 KiB/s for 14 s, then at full speed, whole in {slow.Elapsed.TotalSeconds:F1} s");
    }

    /// <summary>
    /// Fault table row 85 on SignalR: a hub client reading a large answer (1 MiB of text; the PDF until row 93, which
    /// reserves nothing now) steadily at 64 KiB/s beside 100 WebSockets that never read theirs (1 MiB of control characters). The hub writes an answer in pieces, each as fast as the socket takes it, but a piece waited longer than 0.5 s
    /// at such a pace, and the budget, watching the bytes written, closed the connection (13 of 13 such readers at
    /// 100 KiB/s). Now it watches what the socket has sent: the reader reads at its pace for 8 s, then at full speed, and
    /// gets the whole PDF; a reader at full speed beside them gets it within twice its unloaded time and a second.
    /// </summary>
    [Fact]
    public async Task AHubReaderThatReadsSlowlyKeepsItsAnswerBesideAHundredThatNeverRead()
    {
        var service = fixture.Services.Processes.Single(p => p.Spec.Protocol == Protocol.SignalR);
        var client = fixture.Client(Protocol.SignalR, Transport.Http);
        // Every answer here is reserved: 1 MiB of text read, 1 MiB of control characters held (the PDF until row 93).
        var text = new string('a', Limits.CloneTextMaxLength);
        const int count = Limits.CloneOutputMaxChars / Limits.CloneTextMaxLength;
        async Task ReadAsync() => Assert.Equal(text.Length * count, (await client.CloneAsync(text, count, Token)).Length);
        var unloaded = await CallTiming.MedianSecondsAsync(ReadAsync);
        var before = PeakMemory.ResidentMiB(service);

        var slow = Stopwatch.StartNew();
        using var pacedSockets = new HttpMessageInvoker(PacedReading.Handler(64 * 1024, TimeSpan.FromSeconds(8)));
        using var slowHub = await RawHub.OpenAsync(RawHub.Address(fixture.Addresses.BaseUri(Protocol.SignalR, Transport.Http)), "json", Token, pacedSockets);
        var slowAnswer = slowHub.InvokeAsync("1", $"\"target\":\"Clone\",\"arguments\":[\"{text}\",{count}]", Token, TimeSpan.FromSeconds(60));

        var stalled = new List<(ClientWebSocket Socket, HttpMessageInvoker Invoker)>();
        double loaded;
        try
        {
            for (var i = 0; i < Connections; i++)
            {
                stalled.Add(await StalledAsync(RawHub.ReservedClone));
            }

            loaded = await CallTiming.MedianSecondsAsync(ReadAsync);
            var answer = await slowAnswer;
            Assert.True(answer is not null, "The slow reader's answer did not come whole within 60 s: its connection was closed.");
            Assert.Equal(text.Length * count, System.Text.Json.Nodes.JsonNode.Parse(answer)!["result"]!.GetValue<string>().Length);
        }
        finally
        {
            foreach (var (socket, invoker) in stalled)
            {
                socket.Abort();
                socket.Dispose();
                invoker.Dispose();
            }
        }

        TestContext.Current.TestOutputHelper?.WriteLine(
            $"SignalR: 1 MiB of text read at 64 KiB/s for 8 s, then at full speed, in {slow.Elapsed.TotalSeconds:F1} s, whole; at full speed in {loaded:F3} s beside it and {Connections} stalled WebSockets, {unloaded:F3} s unloaded");
        Assert.True(loaded <= (2 * unloaded) + 1, $"{loaded:F2} s for 1 MiB of text beside {Connections} stalled WebSockets and a slow reader, {unloaded:F3} s unloaded.");
        await PeakMemory.AssertGivenBackAsync(service, before, "SignalR", Token);
        Assert.Equal(Expected.Pdf, await client.GetPdfAsync(Token));
    }

    /// <summary>
    /// A WebSocket to the hub that sends the handshake and one invocation and never reads (<see cref="SmallReceiveBuffer"/>).
    /// </summary>
    private async Task<(ClientWebSocket, HttpMessageInvoker)> StalledAsync(string invocation)
    {
        var invoker = new HttpMessageInvoker(SmallReceiveBuffer.Handler());
        var webSocket = new ClientWebSocket();
        var uri = new UriBuilder(fixture.Addresses.BaseUri(Protocol.SignalR, Transport.Http)) { Scheme = "ws", Path = "hub" }.Uri;
        await webSocket.ConnectAsync(uri, invoker, Token);
        await webSocket.SendAsync("{\"protocol\":\"json\",\"version\":1}\u001e"u8.ToArray(), WebSocketMessageType.Text, true, Token);
        await webSocket.SendAsync(Encoding.UTF8.GetBytes($"{{\"type\":1,\"invocationId\":\"1\",{invocation}}}\u001e"), WebSocketMessageType.Text, true, Token);
        return (webSocket, invoker);
    }
}
