using System.Net.WebSockets;

namespace ProtocolBench.Integration.Tests;

/// <summary>
/// Fault table row 94: input queued behind a blocked hub call. 300 hub connections (a 4 KiB receive buffer), each with an
/// answer nobody reads and two <c>GetIntMax</c>, then 1.5 MB of complete ping messages each. Behind an unread
/// <c>GetPdf</c> the hub reads nothing more from the connection (one invocation at a time), and each connection's pings
/// waited in Kestrel's 1 MiB input buffer: +432 MiB. Behind an unread <c>StreamPdf</c> (a stream does not hold the
/// invocation) the pings are read, but the service was still +146 MiB 10 s after the connections closed.
/// </summary>
[Collection(SqliteCollection.Name)]
public sealed class QueuedInputTests(SqliteServices fixture)
{
    private const int Connections = 300;
    private const int PingBytes = 1_500_000;

    [Theory]
    [InlineData("{\"type\":1,\"invocationId\":\"s\",\"target\":\"GetPdf\",\"arguments\":[]}")]
    [InlineData("{\"type\":4,\"invocationId\":\"s\",\"target\":\"StreamPdf\",\"arguments\":[]}")]
    public async Task InputQueuedBehindAnUnreadAnswerIsBounded(string unread)
    {
        var service = fixture.Services.Processes.Single(p => p.Spec.Protocol == Protocol.SignalR);
        var pings = Encoding.UTF8.GetBytes(string.Concat(Enumerable.Repeat("{\"type\":6}" + RawHub.RecordSeparator, PingBytes / 11)));
        var holders = new List<(RawHub Hub, HttpMessageInvoker Invoker)>();
        var sending = new List<Task>();
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(Token);
        PeakMemory memory;
        try
        {
            memory = await PeakMemory.DuringAsync(service, async () =>
            {
                for (var i = 0; i < Connections; i++)
                {
                    var invoker = new HttpMessageInvoker(SmallReceiveBuffer.Handler());
                    var hub = await RawHub.OpenAsync(RawHub.Address(fixture.Addresses.BaseUri(Protocol.SignalR, Transport.Http)), "json", Token, invoker);
                    holders.Add((hub, invoker));
                    await hub.SendJsonAsync(unread, Token);
                    await hub.SendJsonAsync("{\"type\":1,\"invocationId\":\"a\",\"target\":\"GetIntMax\",\"arguments\":[]}", Token);
                    await hub.SendJsonAsync("{\"type\":1,\"invocationId\":\"b\",\"target\":\"GetIntMax\",\"arguments\":[]}", Token);
                    sending.Add(SendUntilStoppedAsync(hub.Socket, pings, stop.Token));
                }

                // The pings sit in the kernel's buffers, and go into the service's as fast as it reads them.
                await Task.Delay(TimeSpan.FromSeconds(3), Token);
            });
        }
        finally
        {
            await stop.CancelAsync();
            await Task.WhenAll(sending);
            foreach (var (hub, invoker) in holders)
            {
                hub.Dispose();
                invoker.Dispose();
            }
        }

        var (after, settled) = await PeakMemory.SettledAsync(service, memory.BeforeMiB, Token);
        TestContext.Current.TestOutputHelper?.WriteLine($"{Connections} connections, each with {PingBytes:N0} bytes of pings behind an unread answer: memory {memory}, {after} MiB {settled:F1} s after they closed");
        // Queued whole, the pings alone are 429 MiB; what a blocked connection holds of them is its input buffers'.
        Assert.True(memory.GrowthMiB <= 224, $"Input queued behind blocked calls grew the service by {memory}.");
        Assert.True(after - memory.BeforeMiB <= PeakMemory.BackWithinMiB, $"{after} MiB resident 10 s after the connections closed, {memory.BeforeMiB} MiB before.");
        Assert.False(service.HasExited);
        Assert.Equal(int.MaxValue, await fixture.Client(Protocol.SignalR, Transport.Http).GetIntMaxAsync(Token));
    }

    /// <summary>Sends <paramref name="bytes"/> as one message's worth of frames until it is all sent or <paramref name="stop"/> ends the wait.</summary>
    private static async Task SendUntilStoppedAsync(ClientWebSocket socket, byte[] bytes, CancellationToken stop)
    {
        try
        {
            foreach (var piece in bytes.Chunk(64 * 1024))
            {
                await socket.SendAsync(piece, WebSocketMessageType.Text, true, stop);
            }
        }
        catch (Exception e) when (e is OperationCanceledException or WebSocketException or ObjectDisposedException)
        {
            // Stopped while the service was not reading, or the connection went: the test measured what it wanted.
        }
    }
}
