namespace ProtocolBench.Integration.Tests;

/// <summary>
/// --compression: against services started to compress, each client gets the same answers as without compression and
/// the bytes at its socket shrink; asking for none gets the answer uncompressed from the same services.
/// </summary>
public sealed class CompressionTests(CompressingServices fixture) : IClassFixture<CompressingServices>
{
    public static readonly TheoryData<Protocol, Transport, bool, Compression> Cases = Build();

    /// <summary>
    /// Search "Author - 1" (3,112 authors with their books): REST's JSON must shrink at least 5× (the goal), the
    /// others clearly, but SignalR, which has no compression to ask for.
    /// </summary>
    [Theory]
    [MemberData(nameof(Cases))]
    public async Task ASearchAnswersTheSameInFarFewerBytes(Protocol protocol, Transport transport, bool http2, Compression compression)
    {
        await using var plain = Client(protocol, transport, http2, Compression.None);
        await using var compressed = Client(protocol, transport, http2, compression);
        var expected = await Search(plain);
        var actual = await Search(compressed);

        Assert.Equal(Expected.AuthorsMatchingAuthor1, actual.Count);
        Assert.Equal(expected, actual);
        var shrink = (double)plain.Wire.Received / compressed.Wire.Received;
        var bytes = $"received {plain.Wire.Received:N0} B uncompressed, {compressed.Wire.Received:N0} B with {compression}: {shrink:F2}×";
        if (protocol.Service() == Protocol.SignalR)
        {
            // SignalR cannot compress its WebSocket (dotnet/aspnetcore#38230): the same bytes, whatever was asked.
            Assert.True(shrink is > 0.98 and < 1.02, bytes);
            return;
        }

        Assert.True(shrink >= (protocol == Protocol.Grpc ? 2 : 5), bytes);
    }

    /// <summary>gRPC compresses its requests too (grpc-encoding: gzip), and the service reads them.</summary>
    [Theory]
    [InlineData(Transport.Http)]
    [InlineData(Transport.Https)]
    public async Task GrpcRequestsTravelCompressedAndAreUnderstood(Transport transport)
    {
        var text = new string('a', 1_024);
        await using var plain = Client(Protocol.Grpc, transport, false, Compression.None);
        await using var compressed = Client(Protocol.Grpc, transport, false, Compression.Gzip);
        await plain.GetIntMaxAsync(Token);
        await compressed.GetIntMaxAsync(Token);
        plain.Wire.Reset();
        compressed.Wire.Reset();

        Assert.Equal(text, await plain.CloneAsync(text, 1, Token));
        Assert.Equal(text, await compressed.CloneAsync(text, 1, Token));

        Assert.True(compressed.Wire.Sent < plain.Wire.Sent - 500, $"sent {plain.Wire.Sent} B uncompressed, {compressed.Wire.Sent} B with gzip");
    }

    /// <summary>A create through compressed calls stores exactly what was sent.</summary>
    [Theory]
    [MemberData(nameof(Cases))]
    public async Task ACreateThroughCompressedCallsStoresWhatWasSent(Protocol protocol, Transport transport, bool http2, Compression compression)
    {
        await using var client = Client(protocol, transport, http2, compression);
        var name = $"pb-test-compression-{protocol}-{transport}-{http2}-{compression}-{Guid.NewGuid():N}";

        var created = await client.CreateAuthorAsync(name, "Poland", Token);
        try
        {
            Assert.Equal(created, await client.GetAuthorAsync(created.Id, Token));
            Assert.Equal(name, created.Name);
        }
        finally
        {
            await client.DeleteAuthorAsync(created.Id, Token);
        }
    }

    private static async Task<IReadOnlyList<AuthorDto>> Search(IProtocolClient client) =>
        await client.SearchAuthorsAsync("Author - 1", null, Token);

    private IProtocolClient Client(Protocol protocol, Transport transport, bool http2, Compression compression) =>
        ProtocolClients.Create(protocol, transport, fixture.ClientOptions with { Compression = compression, HttpsUsesHttp2ForRestAndGraphQL = http2 });

    /// <summary>Every protocol and transport with gzip; REST and GraphQL also with br and over h2.</summary>
    private static TheoryData<Protocol, Transport, bool, Compression> Build()
    {
        var data = new TheoryData<Protocol, Transport, bool, Compression>();
        foreach (var (protocol, transport) in ProtocolClients.AllCombinations)
        {
            data.Add(protocol, transport, false, Compression.Gzip);
            if (protocol is Protocol.Rest or Protocol.GraphQL)
            {
                data.Add(protocol, transport, false, Compression.Brotli);
                if (transport == Transport.Https)
                {
                    data.Add(protocol, transport, true, Compression.Gzip);
                }
            }
        }

        return data;
    }
}
