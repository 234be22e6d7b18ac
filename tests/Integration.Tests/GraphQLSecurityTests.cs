using System.Net.Http.Json;

namespace ProtocolBench.Integration.Tests;

/// <summary>Hostile GraphQL (fault table rows 1, 9, 23–29): refused before anything runs, nothing written, service alive.</summary>
[Collection(SqliteCollection.Name)]
public sealed class GraphQLSecurityTests(SqliteServices fixture)
{
    public static readonly TheoryData<Transport> Transports = [Transport.Http, Transport.Https];

    [Theory]
    [MemberData(nameof(Transports))]
    public async Task DeeperThanTheDeepestShapeIsRefused(Transport transport)
    {
        // Every field of the deepest shape (8 levels under its query field) is depth 9, the limit; one level more is refused.
        static string Levels(int n) => n == 0 ? "id" : $"id children {{ {Levels(n - 1)} }}";
        var (deepest, _) = await PostAsync(transport, $"{{ shape(kind: \"deepest\", id: 1) {{ {Levels(7)} }} }}");
        Assert.Equal(HttpStatusCode.OK, deepest);
        var (status, body) = await PostAsync(transport, $"{{ shape(kind: \"deepest\", id: 1) {{ {Levels(8)} }} }}");
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
        using var http = Http(Transport.Http);
        await fixture.AssertRefusedWithNothingWrittenAsync(http, "graphql", "[{\"query\":\"{ intMax }\"},{\"query\":\"mutation { createAuthor(name: \\\"x\\\", country: \\\"y\\\") { id } }\"}]");
    }

    [Fact]
    public Task IntrospectionIsOffOutsideDevelopment() => AssertRefusedAsync("{ __schema { types { name } } }");

    [Fact]
    public async Task BodyOverOneMebibyteIsRefusedAndMalformedJsonIs400()
    {
        using var http = Http(Transport.Http);
        var big = JsonSerializer.Serialize(new { query = "{ intMax }", variables = new { pad = new string('p', 2 * 1024 * 1024) } });
        using (var response = await OversizedBody.PostAsync(fixture.Addresses.BaseUri(Protocol.GraphQL, Transport.Http), "graphql", big, Token))
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

    /// <summary>
    /// Documents that ended the service, held it for minutes or grew it by gigabytes before the budgets of
    /// <c>LimitedDocumentBuilder.cs</c>; each under the 32 KiB document limit unless it is the one testing that limit.
    /// </summary>
    private static readonly Dictionary<string, (string Query, string Code)> Hostile = new()
    {
        ["a chain of 800 fragments"] = (Chain(800, spreads: 1), "FRAGMENTS_TOO_DEEP"),
        ["40 fragments each spreading the next twice"] = (Chain(40, spreads: 2), "FRAGMENTS_TOO_DEEP"),
        ["300 fragments spread once each"] = (
            "query { " + Join(300, i => $"...f{i}") + " } " + Join(300, i => $"fragment f{i} on Query {{ a{i}: __typename }}"),
            "TOO_MANY_FRAGMENT_SPREADS"),
        ["500 conflicting aliases"] = ("{ " + Join(500, i => $"x: ints(count: {i})") + " }", "TOO_MANY_FIELD_MERGES"),
        ["inline fragments nested 2,000 deep"] = (
            "{ " + string.Concat(Enumerable.Repeat("... on Query { ", 2_000)) + "__typename" + new string('}', 2_000) + " }",
            "DOCUMENT_TOO_DEEP"),
        ["the 20,000-fragment chain (758 KB)"] = (Chain(20_000, spreads: 1), "DOCUMENT_TOO_LONG"),
        ["3,000 repeated arguments"] = ("{ ints(" + Join(3_000, _ => "count: 1", ", ") + ") }", "TOO_MANY_ERRORS"),
        ["1,800 @skip on one field"] = ("{ intMax " + string.Concat(Enumerable.Repeat("@skip(if: false) ", 1_800)) + "}", "TOO_MANY_ERRORS"),
    };

    public static readonly TheoryData<string> HostileDocuments = [.. Hostile.Keys];

    [Theory]
    [MemberData(nameof(HostileDocuments))]
    public async Task HostileDocumentsAreRefusedBeforeTheyCostAnything(string document)
    {
        var (query, code) = Hostile[document];
        var before = await fixture.CountRowsAsync();
        (HttpStatusCode Status, JsonElement Body) answer = default;
        var started = Stopwatch.StartNew();
        var memory = await PeakMemory.DuringAsync(GraphQLService, async () => answer = await PostAsync(Transport.Http, query));
        TestContext.Current.TestOutputHelper?.WriteLine($"{document}: {answer.Status} in {started.Elapsed.TotalSeconds:F2} s, memory {memory}");

        Assert.Equal(HttpStatusCode.BadRequest, answer.Status);
        var errors = answer.Body.GetProperty("errors").EnumerateArray().ToList();
        Assert.InRange(errors.Count, 1, MaxErrorsReturned + 1);
        Assert.Contains(errors, e => e.GetProperty("extensions").GetProperty("code").GetString() == code);
        Assert.True(memory.GrowthMiB < PeakMemory.BoundMiB, $"{document} grew the service by {memory}.");
        Assert.Equal(before, await fixture.CountRowsAsync());
        await AssertAliveAsync(Transport.Http);
    }

    [Fact]
    public async Task OneRequestCannotAskForMoreTextThanAboutOnePdf()
    {
        // 100 aliased clones of 1 KiB × 1,024 cost 102,400 when text was counted per KiB, and answered 100 MiB.
        var text = new string('a', 1_024);
        var query = "query($t: String) { " + Join(100, i => $"c{i}: clone(text: $t, count: 1024)") + " }";
        (HttpStatusCode Status, JsonElement Body) answer = default;
        var memory = await PeakMemory.DuringAsync(GraphQLService, async () => answer = await PostAsync(Transport.Http, query, new { t = text }));
        Assert.Equal(HttpStatusCode.BadRequest, answer.Status);
        Assert.Equal("COMPLEXITY", answer.Body.GetProperty("errors")[0].GetProperty("extensions").GetProperty("code").GetString());
        Assert.True(memory.GrowthMiB < PeakMemory.BoundMiB, $"grew the service by {memory}.");

        // The PDF (4.7 MB of base64) still fits, alone.
        var (status, body) = await PostAsync(Transport.Http, "{ pdf { data } }");
        Assert.Equal(HttpStatusCode.OK, status);
        Assert.Equal(Expected.Pdf, body.GetProperty("data").GetProperty("pdf").GetProperty("data").GetBytesFromBase64());
        (status, _) = await PostAsync(Transport.Http, "{ a: pdf { data } b: pdf { data } }");
        Assert.Equal(HttpStatusCode.BadRequest, status);
    }

    [Fact]
    public Task Int32OverflowLiteralIsAnInvalidArgument() => AssertRefusedAsync("{ ints(count: 2147483648) }");

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

    /// <summary>A client asking for application/graphql-response+json, whose status codes tell a refused request (400) apart.</summary>
    private HttpClient Http(Transport transport) => new(ClientHandlers.Create(fixture.ClientOptions, new WireCounter()))
    {
        BaseAddress = fixture.Addresses.BaseUri(Protocol.GraphQL, transport),
        Timeout = TimeSpan.FromSeconds(30),
        DefaultRequestHeaders = { Accept = { new("application/graphql-response+json") } },
    };

    /// <summary>GraphQLEndpoint.MaxErrors: the errors after these are counted in one more.</summary>
    private const int MaxErrorsReturned = 20;

    private ServiceProcess GraphQLService => fixture.Services.Processes.Single(p => p.Spec.Protocol == Protocol.GraphQL);

    private static string Join(int count, Func<int, string> item, string separator = " ") =>
        string.Join(separator, Enumerable.Range(0, count).Select(item));

    /// <summary>query { ...f0 } with fragment fi spreading f(i+1) <paramref name="spreads"/> times, down to f<paramref name="length"/>.</summary>
    private static string Chain(int length, int spreads) =>
        "query { ...f0 } "
        + Join(length, i => $"fragment f{i} on Query {{ {Join(spreads, _ => $"...f{i + 1}")} }}")
        + $" fragment f{length} on Query {{ __typename }}";

    /// <summary>A query the validator refuses: 400 with errors.</summary>
    private async Task AssertRefusedAsync(string query)
    {
        var (status, body) = await PostAsync(Transport.Http, query);
        Assert.Equal(HttpStatusCode.BadRequest, status);
        Assert.NotEmpty(body.GetProperty("errors").EnumerateArray());
    }

    private async Task<(HttpStatusCode Status, JsonElement Body)> PostAsync(Transport transport, string query, object? variables = null)
    {
        using var http = Http(transport);
        using var response = await http.PostAsJsonAsync("graphql", new { query, variables }, Token);
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
