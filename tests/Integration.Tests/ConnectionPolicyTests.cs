using System.Globalization;

namespace ProtocolBench.Integration.Tests;

/// <summary>
/// --connections: reuse keeps one warm connection per client; new opens a connection (with its TLS handshake on HTTPS)
/// for every request, answers or errors alike, and closes each one after its response.
/// </summary>
[Collection(SqliteCollection.Name)]
public sealed class ConnectionPolicyTests(SqliteServices fixture)
{
    public static readonly TheoryData<Protocol, Transport, bool> Combinations = Build(Transport.Http, Transport.Https);

    public static readonly TheoryData<Protocol, Transport, bool> HttpsCombinations = Build(Transport.Https);

    [Theory]
    [MemberData(nameof(Combinations))]
    public async Task NewOpensAConnectionForEveryRequestAndClosesItAfterTheResponse(Protocol protocol, Transport transport, bool http2)
    {
        await using var client = Client(protocol, transport, http2, ConnectionPolicy.New);
        var port = Port(protocol, transport);
        var openBefore = EstablishedTo(port);

        Assert.Equal(int.MaxValue, await client.GetIntMaxAsync(Token));
        Assert.Equal(Expected.AuthorsMatchingAuthor1000, (await client.SearchAuthorsAsync("Author - 1000", null, Token)).Count);
        Assert.Equal("NOT_FOUND", (await Assert.ThrowsAsync<ProtocolClientException>(() => client.GetAuthorAsync(999_999, Token))).Code);
        var pdf = client.GetPdfBinaryAsync(Token) is { } binary ? await binary : await client.GetPdfAsync(Token);
        Assert.Equal(Expected.Sha256(Expected.Pdf), Expected.Sha256(pdf));

        Assert.Equal(4, client.Wire.Connections);
        Assert.True(EstablishedTo(port) <= openBefore, $"{EstablishedTo(port)} connections to port {port} still open after the responses, {openBefore} before");
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public async Task ReuseSendsEveryRequestOnOneWarmConnection(Protocol protocol, Transport transport, bool http2)
    {
        await using var client = Client(protocol, transport, http2, ConnectionPolicy.Reuse);

        for (var i = 0; i < 4; i++)
        {
            Assert.Equal(int.MaxValue, await client.GetIntMaxAsync(Token));
        }

        Assert.Equal("NOT_FOUND", (await Assert.ThrowsAsync<ProtocolClientException>(() => client.GetAuthorAsync(999_999, Token))).Code);
        Assert.Equal(1, client.Wire.Connections);
    }

    /// <summary>The bytes tell the handshake apart: on HTTPS every call on a new connection carries one (about a kilobyte of TLS records).</summary>
    [Theory]
    [MemberData(nameof(HttpsCombinations))]
    public async Task OnHttpsEveryNewConnectionCarriesAHandshake(Protocol protocol, Transport transport, bool http2)
    {
        await using var warm = Client(protocol, transport, http2, ConnectionPolicy.Reuse);
        await using var cold = Client(protocol, transport, http2, ConnectionPolicy.New);
        await warm.GetIntMaxAsync(Token);
        await cold.GetIntMaxAsync(Token);
        warm.Wire.Reset();
        cold.Wire.Reset();

        for (var i = 0; i < 3; i++)
        {
            await warm.GetIntMaxAsync(Token);
            await cold.GetIntMaxAsync(Token);
        }

        Assert.True(cold.Wire.Total - warm.Wire.Total >= 3 * 500, $"new connections: {cold.Wire.Total} B, reused: {warm.Wire.Total} B for 3 calls each");
    }

    private IProtocolClient Client(Protocol protocol, Transport transport, bool http2, ConnectionPolicy policy) =>
        ProtocolClients.Create(protocol, transport, fixture.ClientOptions with { Connections = policy, HttpsUsesHttp2ForRestAndGraphQL = http2 });

    private int Port(Protocol protocol, Transport transport)
    {
        var (http, https) = fixture.Addresses.Ports(protocol);
        return transport == Transport.Http ? http : https;
    }

    /// <summary>Client sockets connected to <paramref name="port"/> on this machine (state 01 in /proc/net/tcp and tcp6).</summary>
    private static int EstablishedTo(int port)
    {
        var remote = ":" + port.ToString("X4", CultureInfo.InvariantCulture);
        return new[] { "/proc/net/tcp", "/proc/net/tcp6" }
            .Where(File.Exists)
            .SelectMany(file => File.ReadLines(file).Skip(1))
            .Select(line => line.Split(' ', StringSplitOptions.RemoveEmptyEntries))
            .Count(f => f.Length > 3 && f[2].EndsWith(remote, StringComparison.Ordinal) && f[3] == "01");
    }

    /// <summary>Every protocol on <paramref name="transports"/>; REST and GraphQL over HTTPS also with h2 (--http2).</summary>
    private static TheoryData<Protocol, Transport, bool> Build(params Transport[] transports)
    {
        var data = new TheoryData<Protocol, Transport, bool>();
        foreach (var (protocol, transport) in ProtocolClients.AllCombinations.Where(c => transports.Contains(c.Transport)))
        {
            data.Add(protocol, transport, false);
            if (protocol != Protocol.Grpc && transport == Transport.Https)
            {
                data.Add(protocol, transport, true);
            }
        }

        return data;
    }
}
