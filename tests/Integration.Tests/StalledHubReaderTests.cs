using System.Net.Sockets;
using System.Net.WebSockets;
using System.Text;
using System.Text.Json;
using ProtocolBench.Integration.Tests.Infrastructure;
using ProtocolBench.Shared.Clients;
using ProtocolBench.Shared.Domain;

namespace ProtocolBench.Integration.Tests;

/// <summary>
/// Fault table row 78, rows 60 and 68 on SignalR: 100 WebSockets, each asking the hub for the PDF or for 1 MiB of
/// control characters (6 MiB of JSON) and never reading. The hub answers a connection's invocations one at a time, so
/// each holds one answer, but a hundred connections held a hundred (+2 GB for the clones); now the answers are reserved
/// from the response budget and held until sent, and while others wait a connection that stops sending its answer is
/// closed. The service stays within +256 MiB, comes back within 64 MiB 10 s later, and a reader that reads gets the PDF
/// meanwhile.
/// </summary>
[Collection(SqliteCollection.Name)]
public sealed class StalledHubReaderTests(SqliteServices fixture)
{
    private const int Connections = 100;

    private static CancellationToken Token => TestContext.Current.CancellationToken;

    [Theory]
    [InlineData("pdf")]
    [InlineData("control characters")]
    public async Task HubReadersThatNeverReadCannotHoldTheServicesMemory(string answer)
    {
        var service = fixture.Services.Processes.Single(p => p.Spec.Protocol == Protocol.SignalR);
        var invocation = answer == "pdf"
            ? "\"target\":\"GetPdf\",\"arguments\":[]"
            : $"\"target\":\"Clone\",\"arguments\":[{JsonSerializer.Serialize(new string('\u0001', Limits.CloneTextMaxLength))},{Limits.CloneOutputMaxChars / Limits.CloneTextMaxLength}]";
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

        await Task.Delay(TimeSpan.FromSeconds(10), Token);
        var after = PeakMemory.ResidentMiB(service);
        TestContext.Current.TestOutputHelper?.WriteLine($"SignalR {answer}: {after} MiB resident 10 s later (+{after - before})");
        Assert.True(after - before <= PeakMemory.BackWithinMiB, $"SignalR {answer}: {after} MiB resident 10 s after the burst, {before} MiB before it.");
        Assert.False(service.HasExited);
        Assert.Equal(Expected.Pdf, await fixture.Client(Protocol.SignalR, Transport.Https).GetPdfAsync(Token));
    }

    /// <summary>
    /// A WebSocket to the hub that sends the handshake and one invocation and never reads: its socket's receive buffer is
    /// 4 KiB, so the service's writes stop once the kernel's buffers are full, as behind a reader that stalls.
    /// </summary>
    private async Task<(ClientWebSocket, HttpMessageInvoker)> StalledAsync(string invocation)
    {
        var handler = new SocketsHttpHandler
        {
            ConnectCallback = async (context, cancellationToken) =>
            {
                var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { ReceiveBufferSize = 4 * 1024, NoDelay = true };
                try
                {
                    await socket.ConnectAsync(context.DnsEndPoint, cancellationToken);
                    return new NetworkStream(socket, ownsSocket: true);
                }
                catch
                {
                    socket.Dispose();
                    throw;
                }
            },
        };
        var invoker = new HttpMessageInvoker(handler);
        var webSocket = new ClientWebSocket();
        var uri = new UriBuilder(fixture.Addresses.BaseUri(Protocol.SignalR, Transport.Http)) { Scheme = "ws", Path = "hub" }.Uri;
        await webSocket.ConnectAsync(uri, invoker, Token);
        await webSocket.SendAsync("{\"protocol\":\"json\",\"version\":1}\u001e"u8.ToArray(), WebSocketMessageType.Text, true, Token);
        await webSocket.SendAsync(Encoding.UTF8.GetBytes($"{{\"type\":1,\"invocationId\":\"1\",{invocation}}}\u001e"), WebSocketMessageType.Text, true, Token);
        return (webSocket, invoker);
    }
}
