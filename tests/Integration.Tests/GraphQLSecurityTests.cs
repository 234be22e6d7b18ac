using System.Diagnostics;
using System.Net;
using System.Net.Http.Json;
using System.Text;
using System.Text.Json;
using ProtocolBench.Integration.Tests.Infrastructure;
using ProtocolBench.Shared.Clients;
using ProtocolBench.Lab.Services;
using ProtocolBench.Shared.Domain;
using ProtocolBench.Shared.Hosting;

namespace ProtocolBench.Integration.Tests;

/// <summary>Hostile GraphQL (fault table rows 1, 9, 23–29): refused before anything runs, nothing written, service alive.</summary>
[Collection(SqliteCollection.Name)]
public sealed class GraphQLSecurityTests(SqliteServices fixture)
{
    private static CancellationToken Token => TestContext.Current.CancellationToken;

    public static readonly TheoryData<Transport> Transports = [Transport.Http, Transport.Https];

    [Theory]
    [MemberData(nameof(Transports))]
    public async Task DeeperThanFiveIsRefused(Transport transport)
    {
        // Book has no way back to Author, so depth 6 is only reachable through the introspection types.
        var (status, body) = await PostAsync(transport, "{ __type(name: \"Author\") { fields { type { ofType { ofType { ofType { name } } } } } } }");
        Assert.Equal(HttpStatusCode.BadRequest, status);
        Assert.False(body.TryGetProperty("data", out var data) && data.ValueKind == JsonValueKind.Object);
        Assert.NotEmpty(body.GetProperty("errors").EnumerateArray());
        await AssertAliveAsync(transport);
    }

    [Theory]
    [MemberData(nameof(Transports))]
    public async Task FragmentCycleIsRefused(Transport transport)
    {
        const string query = "query { authors(take: 1) { ...A } } fragment A on Author { books { id } ...B } fragment B on Author { id ...A }";
        var (status, body) = await PostAsync(transport, query);
        Assert.Equal(HttpStatusCode.BadRequest, status);
        Assert.Contains(body.GetProperty("errors").EnumerateArray(), e => e.GetProperty("message").GetString()!.Contains("within itself", StringComparison.OrdinalIgnoreCase)
                                                                          || e.GetProperty("extensions").GetProperty("code").GetString() == "NO_FRAGMENT_CYCLES");
        await AssertAliveAsync(transport);
    }

    [Theory]
    [MemberData(nameof(Transports))]
    public async Task TwoHundredAliasedCreateAuthorsAreRefusedAsAWhole(Transport transport)
    {
        var before = await fixture.CountRowsAsync();
        var mutation = new StringBuilder("mutation {");
        for (var i = 0; i < 200; i++)
        {
            mutation.Append($" a{i}: createAuthor(name: \"Batch {i}\", country: \"Nowhere\") {{ id }}");
        }

        var (status, body) = await PostAsync(transport, mutation.Append(" }").ToString());
        Assert.Equal(HttpStatusCode.BadRequest, status);
        Assert.NotEmpty(body.GetProperty("errors").EnumerateArray());
        Assert.Equal(before, await fixture.CountRowsAsync());
        await AssertAliveAsync(transport);
    }

    [Fact]
    public async Task HeaviestLegitimateQueryPassesTheCostLimit()
    {
        var (status, body) = await PostAsync(Transport.Http, "{ searchAuthors(phrase: \"Author - 1\") { id name country books { id authorId title year } } }");
        Assert.Equal(HttpStatusCode.OK, status);
        Assert.Equal(Expected.AuthorsMatchingAuthor1, body.GetProperty("data").GetProperty("searchAuthors").GetArrayLength());
    }

    [Fact]
    public async Task BatchingIsOff()
    {
        var before = await fixture.CountRowsAsync();
        using var http = Http(Transport.Http);
        using var content = new StringContent("[{\"query\":\"{ intMax }\"},{\"query\":\"mutation { createAuthor(name: \\\"x\\\", country: \\\"y\\\") { id } }\"}]", Encoding.UTF8, "application/json");
        using var response = await http.PostAsync("graphql", content, Token);
        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Equal(before, await fixture.CountRowsAsync());
    }

    [Fact]
    public async Task IntrospectionIsOffOutsideDevelopment()
    {
        var (status, body) = await PostAsync(Transport.Http, "{ __schema { types { name } } }");
        Assert.Equal(HttpStatusCode.BadRequest, status);
        Assert.NotEmpty(body.GetProperty("errors").EnumerateArray());
    }

    [Fact]
    public async Task BodyOverOneMebibyteIsRefusedAndMalformedJsonIs400()
    {
        using var http = Http(Transport.Http);
        var big = JsonSerializer.Serialize(new { query = "{ intMax }", variables = new { pad = new string('p', 2 * 1024 * 1024) } });
        using (var response = await http.PostAsync("graphql", new StringContent(big, Encoding.UTF8, "application/json"), Token))
        {
            Assert.Equal(HttpStatusCode.RequestEntityTooLarge, response.StatusCode);
        }

        using (var response = await http.PostAsync("graphql", new StringContent("{\"query\":", Encoding.UTF8, "application/json"), Token))
        {
            Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        }

        using (var response = await http.GetAsync("graphql?query=" + Uri.EscapeDataString("mutation { deleteAuthor(id: 1) }"), Token))
        {
            Assert.Equal(HttpStatusCode.MethodNotAllowed, response.StatusCode);
        }

        Assert.Equal("Author - 1", (await fixture.Client(Protocol.Rest, Transport.Http).GetAuthorAsync(1, Token)).Name);
        await AssertAliveAsync(Transport.Http);
    }

    [Fact]
    public async Task ThousandsOfFieldsAreRefusedByTheParserLimit()
    {
        var (status, _) = await PostAsync(Transport.Http, "{ sample { " + string.Concat(Enumerable.Repeat("name ", 5_000)) + "} }");
        Assert.Equal(HttpStatusCode.BadRequest, status);
        await AssertAliveAsync(Transport.Http);
    }

    [Fact]
    public async Task Int32OverflowLiteralIsAnInvalidArgument()
    {
        var (status, body) = await PostAsync(Transport.Http, "{ ints(count: 2147483648) }");
        Assert.Equal(HttpStatusCode.BadRequest, status);
        Assert.NotEmpty(body.GetProperty("errors").EnumerateArray());
    }

    [Fact]
    public async Task CommittedSchemaMatchesTheLiveSchema()
    {
        var dll = ServiceSpec.All.Single(s => s.Protocol == Protocol.GraphQL).AssemblyPath(ProjectPaths.RootOrCurrent, LaunchOptions.BuildConfiguration);
        var exported = Path.Combine(Path.GetTempPath(), $"schema-{Guid.NewGuid():N}.graphql");
        var info = new ProcessStartInfo("dotnet") { ArgumentList = { dll, "--export-schema", exported }, RedirectStandardOutput = true, RedirectStandardError = true };
        using var process = Process.Start(info)!;
        await process.WaitForExitAsync(Token).WaitAsync(TimeSpan.FromSeconds(60), Token);
        Assert.Equal(0, process.ExitCode);
        var committed = await File.ReadAllTextAsync(Path.Combine(ProjectPaths.RootOrCurrent, "src", "GraphQL.Api", "schema.graphql"), Token);
        var live = await File.ReadAllTextAsync(exported, Token);
        File.Delete(exported);
        Assert.True(committed == live,
            "The GraphQL schema changed. If that was intended, regenerate the snapshot: " +
            "dotnet run --project src/GraphQL.Api -- --export-schema src/GraphQL.Api/schema.graphql");
    }

    private HttpClient Http(Transport transport) => new(ClientHandlers.Create(fixture.ClientOptions, new WireCounter()))
    {
        BaseAddress = fixture.Addresses.BaseUri(Protocol.GraphQL, transport),
        Timeout = TimeSpan.FromSeconds(30),
    };

    private async Task<(HttpStatusCode Status, JsonElement Body)> PostAsync(Transport transport, string query)
    {
        using var http = Http(transport);
        using var response = await http.PostAsJsonAsync("graphql", new { query }, Token);
        var body = await response.Content.ReadFromJsonAsync<JsonElement>(Token);
        Assert.DoesNotContain(" at ProtocolBench", body.GetRawText());
        return (response.StatusCode, body);
    }

    private async Task AssertAliveAsync(Transport transport)
    {
        var client = fixture.Client(Protocol.GraphQL, transport);
        Assert.Equal(int.MaxValue, await client.GetIntMaxAsync(Token));
        Assert.Equal(Expected.AuthorsMatchingAuthor1000, (await client.SearchAuthorsAsync("Author - 1000", null, Token)).Count);
    }
}
