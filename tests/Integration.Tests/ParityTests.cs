using ProtocolBench.Lab.Runs;
using ProtocolBench.Shared.Domain.Payloads;
using ProtocolBench.Shared.Domain.Shapes;

namespace ProtocolBench.Integration.Tests;

/// <summary>
/// The same request gives the same data on every protocol and transport. REST over HTTP is the reference;
/// every other combination must return equal DTOs (field by field), equal bytes (SHA-256) and the same errors.
/// </summary>
[Collection(SqliteCollection.Name)]
public sealed class ParityTests(SqliteServices fixture)
{
    public static readonly TheoryData<Protocol, Transport> Combinations = Build();

    private static readonly CreatedAuthors Created = new("test", RunDescription.NewId(DateTimeOffset.UtcNow));

    private IProtocolClient Reference => fixture.Client(Protocol.Rest, Transport.Http);

    /// <summary>
    /// The benchmark's domain floor does the services' work: in process, every scenario passes its per-call check and its
    /// full verification, reads equal REST's, and a bad argument is the same domain error the services translate.
    /// </summary>
    [Fact]
    public async Task InProcessOperationsDoWhatTheServicesDo()
    {
        await using var local = new InProcessOperations(fixture.Database, Catalogue.Files);
        foreach (var scenario in Catalogue.All.Where(s => s.HasRequest))
        {
            var marker = scenario.Creates ? Created.Name("create") : "";
            var result = await scenario.CallAsync(local, marker, Token);
            if (scenario.Verify is { } verify)
            {
                await verify(local, Token);
            }

            if (scenario.Creates)
            {
                var created = (AuthorDto)result;
                Assert.Equal(created, await Reference.GetAuthorAsync(created.Id, Token));
                await local.DeleteAuthorAsync(created.Id, Token);
            }
        }

        AssertSameAuthors(await Reference.SearchAuthorsAsync("Author - 100", null, Token), await local.SearchAuthorsAsync("Author - 100", null, Token));
        Assert.Equal(await Reference.GetAuthorAsync(4_242, Token), await local.GetAuthorAsync(4_242, Token));
        var error = await Assert.ThrowsAsync<DomainException>(() => local.SearchAuthorsAsync("", null, Token));
        Assert.Equal(ErrorCode.InvalidArgument, error.Code);
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public async Task PayloadsMatchRest(Protocol protocol, Transport transport)
    {
        var client = fixture.Client(protocol, transport);
        Assert.Equal(await Reference.CloneAsync("Hello World!", 1, Token), await client.CloneAsync("Hello World!", 1, Token));
        var lorem = await client.CloneAsync(PayloadOperations.LoremIpsum, 1_000, Token);
        Assert.Equal(615_000, lorem.Length);
        Assert.Equal(await Reference.CloneAsync(PayloadOperations.LoremIpsum, 1_000, Token), lorem);
        Assert.Equal("", await client.CloneAsync("x", 0, Token));
        Assert.Equal(int.MaxValue, await client.GetIntMaxAsync(Token));
        Assert.Equal(await Reference.GetIntsAsync(10_000, Token), await client.GetIntsAsync(10_000, Token));
        Assert.Empty(await client.GetIntsAsync(0, Token));
        Assert.Equal(await Reference.GetSampleAsync(Token), await client.GetSampleAsync(Token));
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public async Task FilesMatchByHash(Protocol protocol, Transport transport)
    {
        var client = fixture.Client(protocol, transport);
        var text = await client.GetTextFileAsync(Token);
        Assert.Equal(Expected.TextFileBytes, text.Length);
        Assert.Equal(Expected.Sha256(Expected.TextFile), Expected.Sha256(text));
        var pdf = await client.GetPdfAsync(Token);
        Assert.Equal(Expected.PdfBytes, pdf.Length);
        Assert.Equal(Expected.Sha256(Expected.Pdf), Expected.Sha256(pdf));
        if (client.GetPdfBinaryAsync(Token) is { } binary)
        {
            Assert.Equal(Expected.Sha256(Expected.Pdf), Expected.Sha256(await binary));
        }
        else
        {
            Assert.Equal(Protocol.GraphQL, protocol);
        }
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public async Task AuthorReadsMatchRest(Protocol protocol, Transport transport)
    {
        var client = fixture.Client(protocol, transport);
        foreach (var (phrase, count) in new[] { ("Author - 1", Expected.AuthorsMatchingAuthor1), ("Author - 100", Expected.AuthorsMatchingAuthor100), ("Author - 1000", Expected.AuthorsMatchingAuthor1000) })
        {
            var found = await client.SearchAuthorsAsync(phrase, null, Token);
            Assert.Equal(count, found.Count);
            AssertSameAuthors(await Reference.SearchAuthorsAsync(phrase, null, Token), found);
        }

        AssertSameAuthors(await Reference.SearchAuthorsAsync("Author - 1", 7, Token), await client.SearchAuthorsAsync("Author - 1", 7, Token));
        AssertSameAuthors(await Reference.ListAuthorsAsync(null, null, Token), await client.ListAuthorsAsync(null, null, Token));
        AssertSameAuthors(await Reference.ListAuthorsAsync(11_950, 1_000, Token), await client.ListAuthorsAsync(11_950, 1_000, Token));
        Assert.Equal(100, (await client.ListAuthorsAsync(null, null, Token)).Count);
        Assert.Equal(await Reference.GetAuthorAsync(4_242, Token), await client.GetAuthorAsync(4_242, Token));
        Assert.Empty(await client.SearchAuthorsAsync("' OR 1=1 --", null, Token));
        Assert.Empty(await client.SearchAuthorsAsync("%", null, Token));
    }

    /// <summary>Every payload shape, one and a hundred, is the tree built in memory, on every protocol (GraphQL selecting every field at every depth).</summary>
    [Theory]
    [MemberData(nameof(Combinations))]
    public async Task ShapesAreTheTreesBuiltInMemory(Protocol protocol, Transport transport)
    {
        var client = fixture.Client(protocol, transport);
        foreach (var kind in ShapeOperations.Kinds)
        {
            var one = await client.GetShapeAsync(kind.Name, Catalogue.ShapeId, Token);
            Assert.Equal(ShapeOperations.Get(kind.Name, Catalogue.ShapeId), one);
            Assert.Equal((kind.Objects, kind.Levels), (Objects(one), Levels(one)));
            Assert.Equal(await Reference.GetShapeAsync(kind.Name, Catalogue.ShapeId, Token), one);
            var hundred = await client.ListShapesAsync(kind.Name, null, Token);
            Assert.Equal(ShapeOperations.List(kind.Name, null), hundred);
            Assert.Equal(Enumerable.Range(1, 100), hundred.Select(s => s.Id));
        }
    }

    /// <summary>On the wire a shape's object is its four fields and its children, nothing more (REST's JSON as curl sees it).</summary>
    [Fact]
    public async Task AShapesObjectIsItsFourFieldsAndItsChildrenOnTheWire()
    {
        using var http = new HttpClient { BaseAddress = fixture.Addresses.BaseUri(Protocol.Rest, Transport.Http), Timeout = TimeSpan.FromSeconds(10) };
        using var json = System.Text.Json.JsonDocument.Parse(await http.GetStringAsync("api/shapes/medium/7", Token));
        foreach (var element in new[] { json.RootElement, json.RootElement.GetProperty("children")[8] })
        {
            Assert.Equal(["id", "name", "count", "ratio", "children"], element.EnumerateObject().Select(p => p.Name));
        }

        Assert.Equal(7.125, json.RootElement.GetProperty("children")[0].GetProperty("ratio").GetDouble());
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public async Task WritesRoundTripAndReadBackOverRest(Protocol protocol, Transport transport)
    {
        var client = fixture.Client(protocol, transport);
        var before = await fixture.CountRowsAsync();
        var created = await client.CreateAuthorAsync($"Parity {protocol} {transport} ✓", "Iceland", Token);
        Assert.Equal(created, await Reference.GetAuthorAsync(created.Id, Token));
        var updated = await client.UpdateAuthorAsync(created.Id, "Renamed", "Norway", Token);
        Assert.Equal(new AuthorDto(created.Id, "Renamed", "Norway", []), updated);
        Assert.Equal(updated, await Reference.GetAuthorAsync(created.Id, Token));
        await client.DeleteAuthorAsync(created.Id, Token);
        Assert.Equal("NOT_FOUND", (await Assert.ThrowsAsync<ProtocolClientException>(() => Reference.GetAuthorAsync(created.Id, Token))).Code);
        Assert.Equal(before, await fixture.CountRowsAsync());
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public async Task UnknownIdsAreNotFoundWithTheSameMessage(Protocol protocol, Transport transport)
    {
        var client = fixture.Client(protocol, transport);
        foreach (var call in new Func<IProtocolClient, Task>[]
                 {
                     c => c.GetAuthorAsync(999_999, Token),
                     c => c.UpdateAuthorAsync(999_999, "Name", "Country", Token),
                     c => c.DeleteAuthorAsync(999_999, Token),
                 })
        {
            var expected = await Assert.ThrowsAsync<ProtocolClientException>(() => call(Reference));
            var actual = await Assert.ThrowsAsync<ProtocolClientException>(() => call(client));
            Assert.Equal(("NOT_FOUND", expected.Message), (actual.Code, actual.Message));
        }
    }

    public static TheoryData<string, Protocol, Transport> LimitCasesEverywhere()
    {
        var data = new TheoryData<string, Protocol, Transport>();
        foreach (var limit in LimitCase.All)
        {
            foreach (var (protocol, transport) in ProtocolClients.AllCombinations.Where(c => c.Protocol != Protocol.Rest))
            {
                data.Add(limit.Name, protocol, transport);
            }
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(LimitCasesEverywhere))]
    public async Task LimitsAreRefusedLikeRest(string name, Protocol protocol, Transport transport)
    {
        var limit = LimitCase.All.Single(c => c.Name == name);
        var client = fixture.Client(protocol, transport);
        var before = await fixture.CountRowsAsync();
        if (limit.Accepted)
        {
            await limit.Call(client, Token);
        }
        else
        {
            var expected = await Assert.ThrowsAsync<ProtocolClientException>(() => limit.Call(Reference, Token));
            var actual = await Assert.ThrowsAsync<ProtocolClientException>(() => limit.Call(client, Token));
            Assert.Equal("INVALID_ARGUMENT", actual.Code);
            Assert.Equal(expected.Message, actual.Message);
        }

        Assert.Equal(before, await fixture.CountRowsAsync());
    }

    private static int Objects(ShapeDto shape) => 1 + shape.Children.Sum(Objects);

    private static int Levels(ShapeDto shape) => 1 + (shape.Children.Count == 0 ? 0 : shape.Children.Max(Levels));

    private static void AssertSameAuthors(IReadOnlyList<AuthorDto> expected, IReadOnlyList<AuthorDto> actual)
    {
        Assert.Equal(expected.Count, actual.Count);
        for (var i = 0; i < expected.Count; i++)
        {
            Assert.Equal(expected[i], actual[i]);
        }
    }

    private static TheoryData<Protocol, Transport> Build()
    {
        var data = new TheoryData<Protocol, Transport>();
        foreach (var (protocol, transport) in ProtocolClients.AllCombinations)
        {
            data.Add(protocol, transport);
        }

        return data;
    }
}
