using System.Net.Http.Headers;

namespace ProtocolBench.Integration.Tests;

/// <summary>
/// GraphQL over HTTP (fault table rows 56 and 57): the spec authors' own audit, and the status and charset rules the
/// audit does not reach, with REST refusing a charset the same way.
/// </summary>
[Collection(SqliteCollection.Name)]
public sealed class GraphQLOverHttpTests(SqliteServices fixture)
{
    private const string GraphQLResponse = "application/graphql-response+json";

    [Fact]
    public async Task TheSpecsOwnAuditPassesEveryMustAndShould()
    {
        // graphql-http's audits ask for __type four times, and introspection is on only in Development; so the audit runs
        // against a Development instance of the same service (docs/fault-table.md, row 56).
        var folder = await NodePrograms.PrepareAsync("tests/graphql-http-audit", Token);

        var database = Path.Combine(Path.GetTempPath(), $"protocolbench-audit-{Guid.NewGuid():N}.db");
        try
        {
            await using var service = await ServiceLauncher.StartAsync(new LaunchOptions
            {
                Addresses = ServiceAddresses.AnyFree,
                ConnectionString = $"Data Source={database}",
                Services = [.. ServiceSpec.All.Where(s => s.Protocol == Protocol.GraphQL)],
                Settings = new Dictionary<string, string> { ["environment"] = "Development" },
            }, cancellationToken: Token);

            var url = new Uri(service.Addresses.BaseUri(Protocol.GraphQL, Transport.Http), "graphql").ToString();
            var (exit, output, error) = await NodePrograms.RunAsync("node", ["audit.mjs", url], folder, TimeSpan.FromMinutes(2), Token);
            TestContext.Current.TestOutputHelper?.WriteLine(output + error);
            Assert.True(exit == 0, $"The GraphQL-over-HTTP audit found a MUST or SHOULD not met:\n{output}{error}");
            Assert.Contains(" 0 warnings, 0 errors", output);
        }
        finally
        {
            foreach (var file in new[] { database, database + "-wal", database + "-shm" })
            {
                File.Delete(file);
            }
        }
    }

    [Theory]
    [InlineData(GraphQLResponse, HttpStatusCode.BadRequest, GraphQLResponse)]
    [InlineData("application/json", HttpStatusCode.OK, "application/json")]
    [InlineData(null, HttpStatusCode.OK, "application/json")]
    [InlineData("*/*", HttpStatusCode.OK, "application/json")]
    [InlineData("application/json;q=0.9, application/graphql-response+json", HttpStatusCode.BadRequest, GraphQLResponse)]
    [InlineData("application/graphql-response+json;q=0.5, application/json", HttpStatusCode.OK, "application/json")]
    public async Task RequestErrorsAre400ForGraphQLResponseJsonAnd200ForJson(string? accept, HttpStatusCode expected, string contentType)
    {
        var requests = new[]
        {
            """{"query":"{"}""",                                                           // does not parse
            """{"query":"{ nothing }"}""",                                                 // does not validate
            """{"query":"query($i: Int!) { author(id: $i) { id } }","variables":{"i":null}}""", // variables do not coerce
        };
        foreach (var body in requests)
        {
            using var response = await PostAsync(body, accept);
            Assert.Equal(expected, response.StatusCode);
            Assert.Equal(contentType, response.Content.Headers.ContentType?.MediaType);
            using var json = JsonDocument.Parse(await response.Content.ReadAsStringAsync(Token));
            Assert.NotEmpty(json.RootElement.GetProperty("errors").EnumerateArray());
            Assert.False(json.RootElement.TryGetProperty("data", out _), "Nothing may execute.");
        }
    }

    [Fact]
    public async Task RequestsThatAreNotGraphQLRequestsAre4xxWhateverTheAcceptHeader()
    {
        foreach (var accept in new[] { GraphQLResponse, "application/json" })
        {
            using (var response = await PostAsync("""{"qeury":"{ intMax }"}""", accept))
            {
                Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
            }

            using (var response = await PostAsync("""{"query":"{ intMax }"}""", "text/html"))
            {
                Assert.Equal(HttpStatusCode.NotAcceptable, response.StatusCode);
            }

            using var http = Http();
            using var get = new HttpRequestMessage(HttpMethod.Get, "graphql?query=" + Uri.EscapeDataString("mutation { deleteAuthor(id: 1) }"))
            {
                Headers = { Accept = { new MediaTypeWithQualityHeaderValue(accept) } },
            };
            using var refused = await http.SendAsync(get, Token);
            Assert.Equal(HttpStatusCode.MethodNotAllowed, refused.StatusCode);
            Assert.Contains("POST", refused.Content.Headers.Allow);
        }

        Assert.Equal("Author - 1", (await fixture.Client(Protocol.Rest, Transport.Http).GetAuthorAsync(1, Token)).Name);
    }

    [Fact]
    public async Task GetTakesUrlEncodedVariables()
    {
        using var http = Http();
        var query = Uri.EscapeDataString("query($c: Int) { ints(count: $c) }");
        var variables = Uri.EscapeDataString("""{"c":3}""");
        using var response = await http.GetAsync($"graphql?query={query}&variables={variables}", Token);
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("""{"data":{"ints":[0,1,2]}}""", await response.Content.ReadAsStringAsync(Token));
    }

    /// <summary>One rule for request charsets: UTF-8 or none; anything else is 415 on REST and GraphQL (gRPC's strings are UTF-8 by definition).</summary>
    [Theory]
    [InlineData("utf-16", HttpStatusCode.UnsupportedMediaType)]
    [InlineData("iso-8859-1", HttpStatusCode.UnsupportedMediaType)]
    [InlineData("utf-8", HttpStatusCode.OK)]
    [InlineData("\"UTF-8\"", HttpStatusCode.OK)]
    public async Task RequestCharsetsFollowOneRuleOnRestAndGraphQL(string charset, HttpStatusCode expected)
    {
        var before = await fixture.CountRowsAsync();
        var encoding = charset == "utf-16" ? Encoding.Unicode : charset == "iso-8859-1" ? Encoding.Latin1 : Encoding.UTF8;
        var name = $"Charset {charset.Trim('"')}";

        using var rest = new HttpClient(ClientHandlers.Create(fixture.ClientOptions, new WireCounter()))
        {
            BaseAddress = fixture.Addresses.BaseUri(Protocol.Rest, Transport.Http),
            Timeout = TimeSpan.FromSeconds(30),
        };
        using var restResponse = await rest.PostAsync("api/authors", Content($$"""{"name":"{{name}}","country":"Nowhere"}""", encoding, charset), Token);
        using var graphql = Http();
        using var graphQLResponse = await graphql.PostAsync("graphql",
            Content($$"""{"query":"mutation { createAuthor(name: \"{{name}}\", country: \"Nowhere\") { id } }"}""", encoding, charset), Token);

        Assert.Equal(expected == HttpStatusCode.OK ? HttpStatusCode.Created : expected, restResponse.StatusCode);
        Assert.Equal(expected, graphQLResponse.StatusCode);
        if (expected == HttpStatusCode.UnsupportedMediaType)
        {
            const string code = "\"code\":\"UNSUPPORTED_MEDIA_TYPE\"";
            Assert.Contains(code, await restResponse.Content.ReadAsStringAsync(Token));
            Assert.Contains(code, await graphQLResponse.Content.ReadAsStringAsync(Token));
            Assert.Equal(before, await fixture.CountRowsAsync());
        }
    }

    private static ByteArrayContent Content(string json, Encoding encoding, string charset)
    {
        var content = new ByteArrayContent(encoding.GetBytes(json));
        content.Headers.TryAddWithoutValidation("Content-Type", $"application/json; charset={charset}");
        return content;
    }

    private HttpClient Http() => new(ClientHandlers.Create(fixture.ClientOptions, new WireCounter()))
    {
        BaseAddress = fixture.Addresses.BaseUri(Protocol.GraphQL, Transport.Http),
        Timeout = TimeSpan.FromSeconds(30),
    };

    private async Task<HttpResponseMessage> PostAsync(string body, string? accept)
    {
        using var http = Http();
        using var request = new HttpRequestMessage(HttpMethod.Post, "graphql") { Content = new StringContent(body, Encoding.UTF8, "application/json") };
        if (accept is not null)
        {
            request.Headers.TryAddWithoutValidation("Accept", accept);
        }

        return await http.SendAsync(request, Token);
    }
}
