using System.Net.Sockets;
using ProtocolBench.Integration.Tests.Infrastructure;
using ProtocolBench.Lab.Scenarios;
using ProtocolBench.Shared.Clients;
using ProtocolBench.Shared.Hosting;

namespace ProtocolBench.Integration.Tests;

/// <summary>
/// The REST service's loopback sender, the plain TCP socket the benchmark's loopback transfer times: the files' exact
/// bytes, to the project's client and to bash's /dev/tcp, and bounded like the service's other endpoints.
/// </summary>
[Collection(SqliteCollection.Name)]
public sealed class LoopbackSenderTests(SqliteServices fixture)
{
    private static CancellationToken Token => TestContext.Current.CancellationToken;

    private int Port => fixture.Addresses.SenderPort ?? throw new InvalidOperationException("The REST service announced no loopback sender.");

    [Fact]
    public async Task OneConnectionCarriesEachFileExactlyAgainAndAgain()
    {
        await using var client = new LoopbackTransferClient(fixture.Addresses.Host, Port, TimeSpan.FromSeconds(30));
        foreach (var _ in Enumerable.Range(0, 3))
        {
            Checks.Sha256((await client.GetPdfBinaryAsync(Token)!), Catalogue.Files.PdfSha256, "PDF");
            Checks.Sha256((await client.GetTextFileBinaryAsync(Token)!), Catalogue.Files.TextSha256, "text file");
        }

        await Assert.ThrowsAsync<NotSupportedException>(() => client.GetIntMaxAsync(Token));
    }

    /// <summary>A client the project did not write: bash opens the socket, asks for the PDF with one byte, and sha256sum hashes what arrives.</summary>
    [Fact]
    public async Task BashReadsThePdfFromTheSender()
    {
        var script = $"exec 3<>/dev/tcp/{fixture.Addresses.Host}/{Port}; printf p >&3; head -c {Catalogue.Files.Pdf.Length} <&3 | sha256sum";
        var output = await Processes.RunAsync("timeout", "30", "bash", "-c", script);
        Assert.Equal(Catalogue.Files.PdfSha256, output.Split(' ')[0]);
    }

    [Fact]
    public async Task AnyOtherByteClosesItsConnectionAndNothingElse()
    {
        using (var stranger = await ConnectAsync())
        {
            await stranger.SendAsync("GET / HTTP/1.1\r\n\r\n"u8.ToArray(), SocketFlags.None, Token);
            Assert.Equal(0, await ReceiveToEndAsync(stranger));
        }

        await using var client = new LoopbackTransferClient(fixture.Addresses.Host, Port, TimeSpan.FromSeconds(30));
        Checks.Sha256((await client.GetPdfBinaryAsync(Token)!), Catalogue.Files.PdfSha256, "PDF");
        Assert.Equal(Catalogue.Files.Pdf.Length, (await fixture.Client(Protocol.Rest, Transport.Http).GetPdfBinaryAsync(Token)!).Length);
    }

    /// <summary>Eight idle connections are all it keeps; a ninth is closed at once, and a place frees when one of the eight goes.</summary>
    [Fact]
    public async Task AFewConnectionsAtATime()
    {
        var idle = new List<Socket>();
        try
        {
            // Another test's connection may still be closing on the server: fill until the sender refuses one.
            Socket? refused = null;
            for (var i = 0; i < 16 && refused is null; i++)
            {
                var socket = await ConnectAsync();
                if (await IsClosedAsync(socket))
                {
                    refused = socket;
                }
                else
                {
                    idle.Add(socket);
                }
            }

            Assert.NotNull(refused);
            refused.Dispose();
            Assert.InRange(idle.Count, 1, 8);
        }
        finally
        {
            idle.ForEach(s => s.Dispose());
        }

        // The server frees the places as it sees the eight go: poll, with a generous bound, until a transfer works.
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(Token);
        deadline.CancelAfter(TimeSpan.FromSeconds(30));
        while (true)
        {
            try
            {
                await using var client = new LoopbackTransferClient(fixture.Addresses.Host, Port, TimeSpan.FromSeconds(10));
                Assert.Equal(Catalogue.Files.Text.Length, (await client.GetTextFileBinaryAsync(deadline.Token)!).Length);
                return;
            }
            catch (Exception e) when (e is IOException or SocketException)
            {
                await Task.Delay(100, deadline.Token);
            }
        }
    }

    private async Task<Socket> ConnectAsync()
    {
        var socket = new Socket(SocketType.Stream, ProtocolType.Tcp);
        await socket.ConnectAsync(fixture.Addresses.Host, Port, Token);
        return socket;
    }

    /// <summary>Whether the sender closes this connection: it asks for the text file and sees the end (or a reset) instead.</summary>
    private static async Task<bool> IsClosedAsync(Socket socket)
    {
        try
        {
            await socket.SendAsync(new[] { LoopbackSender.TextFile }, SocketFlags.None, Token);
            var first = new byte[1];
            using var wait = CancellationTokenSource.CreateLinkedTokenSource(Token);
            wait.CancelAfter(TimeSpan.FromSeconds(10));
            if (await socket.ReceiveAsync(first, SocketFlags.None, wait.Token) == 0)
            {
                return true;
            }

            // Served: read the rest, so that the connection is idle again.
            await using var stream = new NetworkStream(socket, ownsSocket: false);
            await stream.ReadExactlyAsync(new byte[Catalogue.Files.Text.Length - 1], wait.Token);
            return false;
        }
        catch (SocketException)
        {
            return true;
        }
    }

    /// <summary>Reads until the server closes; returns what arrived (10 s at most).</summary>
    private static async Task<int> ReceiveToEndAsync(Socket socket)
    {
        using var wait = CancellationTokenSource.CreateLinkedTokenSource(Token);
        wait.CancelAfter(TimeSpan.FromSeconds(10));
        var buffer = new byte[4096];
        var total = 0;
        try
        {
            for (int n; (n = await socket.ReceiveAsync(buffer, SocketFlags.None, wait.Token)) > 0;)
            {
                total += n;
            }
        }
        catch (SocketException)
        {
            // A reset is a close too.
        }

        return total;
    }
}
