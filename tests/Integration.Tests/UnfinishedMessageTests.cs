using System.Net.WebSockets;

namespace ProtocolBench.Integration.Tests;

/// <summary>
/// Fault table row 92: which unfinished hub messages give way when they hold more than 32 MiB together. "Oldest first"
/// closed an honest 900 KB invocation sent over 3 s (answered alone in 3.0 s) at 0.6 s whenever 40 connections started
/// 1 MB unfinished messages after it: an attacker could aim at any message by starting later. Now messages that stopped
/// arriving go first, then the largest.
/// </summary>
[Collection(SqliteCollection.Name)]
public sealed class UnfinishedMessageTests(SqliteServices fixture)
{
    private const int Attackers = 40;

    private Uri Hub => RawHub.Address(fixture.Addresses.BaseUri(Protocol.SignalR, Transport.Http));

    [Fact]
    public async Task AMessageThatKeepsArrivingOutlivesLaterOnesThatStop()
    {
        var service = fixture.Services.Processes.Single(p => p.Spec.Protocol == Protocol.SignalR);
        // GetIntMax's invocation, its arguments padded with 900 KB of white space, in 30 pieces 0.1 s apart.
        var message = Encoding.UTF8.GetBytes(
            "{\"type\":1,\"invocationId\":\"1\",\"target\":\"GetIntMax\",\"arguments\":[" + new string(' ', 900_000) + "]}" + RawHub.RecordSeparator);
        var pieces = message.Chunk((message.Length / 30) + 1).ToList();
        using var victim = await RawHub.OpenAsync(Hub, "json", Token);
        var attackers = new List<RawHub>();
        var clock = Stopwatch.StartNew();
        try
        {
            var sending = SendSlowlyAsync(victim.Socket, pieces);
            await Task.Delay(TimeSpan.FromSeconds(0.3), Token);
            var unfinished = Encoding.UTF8.GetBytes("{\"type\":1,\"invocationId\":\"1\",\"target\":\"Clone\",\"arguments\":[\"" + new string('a', 1_000_000));
            for (var i = 0; i < Attackers; i++)
            {
                var attacker = await RawHub.OpenAsync(Hub, "json", Token);
                attackers.Add(attacker);
                try
                {
                    await attacker.Socket.SendAsync(unfinished, WebSocketMessageType.Text, true, Token);
                }
                catch (WebSocketException)
                {
                    // Closed already, for its message: as it should be.
                }
            }

            Assert.True(await sending, $"The 900 KB message's connection was closed after {clock.Elapsed.TotalSeconds:F1} s.");
            var answer = await victim.AnswerAsync("1", TimeSpan.FromSeconds(10), Token);
            Assert.True(answer is not null, $"No answer to the 900 KB message within 10 s of its end ({clock.Elapsed.TotalSeconds:F1} s).");
            Assert.Contains("\"result\":2147483647", answer);

            var closed = (await Task.WhenAll(attackers.Select(a => a.ClosedAsync(TimeSpan.FromSeconds(2), Token)))).Count(c => c);

            TestContext.Current.TestOutputHelper?.WriteLine(
                $"The 900 KB message answered after {clock.Elapsed.TotalSeconds:F1} s beside {Attackers} unfinished messages of 1 MB, {closed} of them closed");
            // 40 MB against 32 MiB: at least 7 had to give way.
            Assert.True(closed >= 7, $"Only {closed} of the {Attackers} unfinished messages were closed.");
        }
        finally
        {
            attackers.ForEach(a => a.Dispose());
        }

        Assert.False(service.HasExited);
        Assert.DoesNotContain("fail:", service.Tail());
        Assert.Equal(int.MaxValue, await fixture.Client(Protocol.SignalR, Transport.Http).GetIntMaxAsync(Token));
    }

    /// <summary>Sends the pieces as fragments of one message, 0.1 s apart; false if the connection was closed on the way.</summary>
    private static async Task<bool> SendSlowlyAsync(ClientWebSocket socket, List<byte[]> pieces)
    {
        try
        {
            for (var i = 0; i < pieces.Count; i++)
            {
                await socket.SendAsync(pieces[i], WebSocketMessageType.Text, i == pieces.Count - 1, Token);
                await Task.Delay(TimeSpan.FromSeconds(0.1), Token);
            }

            return true;
        }
        catch (WebSocketException)
        {
            return false;
        }
    }
}
