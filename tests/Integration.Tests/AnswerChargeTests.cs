using System.Text.RegularExpressions;
using Google.Protobuf;

namespace ProtocolBench.Integration.Tests;

/// <summary>
/// What a list of authors is charged (fault table row 69). A search reserves 128 bytes an author before its query, and an
/// author created with a name of 100 emoji takes 1,200 bytes of escapes in JSON: so a search or a page is charged its real
/// size once it is built, before it is written; GraphQL is charged as it writes, aliases included. And an alias, the key
/// of its field's every value, is at most 32 characters (row 70). A file is reserved its base64, a clone its JSON and its own
/// text (row 71). On services of their own, which print each reservation and charge.
/// </summary>
public sealed partial class AnswerChargeTests(ChargeLoggingServices fixture) : IClassFixture<ChargeLoggingServices>
{
    private const int LongNames = 300;

    /// <summary>100 emoji: 200 UTF-16 units, the longest name the domain takes, and 12 bytes each in JSON (two escapes).</summary>
    private static readonly string Emoji = string.Concat(Enumerable.Repeat("\U0001F600", 100));

    [Fact]
    public async Task AListOfLongNamesIsChargedWhatItSendsOnEveryProtocol()
    {
        var (authorsBefore, books) = await fixture.CountRowsAsync();
        var rest = fixture.Client(Protocol.Rest, Transport.Http);
        for (var i = 0; i < LongNames; i++)
        {
            await rest.CreateAuthorAsync(Emoji, Emoji[..100], Token);
        }

        using var http = new HttpClient { Timeout = TimeSpan.FromSeconds(30) };
        var phrase = Uri.EscapeDataString(Emoji[..2]);
        var restUri = fixture.Addresses.BaseUri(Protocol.Rest, Transport.Http);
        await AssertChargedAsync(Protocol.Rest, "/api/authors/search",
            await http.GetByteArrayAsync(new Uri(restUri, $"/api/authors/search?phrase={phrase}&limit={LongNames}"), Token));
        await AssertChargedAsync(Protocol.Rest, "/api/authors",
            await http.GetByteArrayAsync(new Uri(restUri, $"/api/authors?skip={authorsBefore}&take={LongNames}"), Token));

        // Three keys for each name: what the answer repeats, the charge counts.
        var graphql = new Uri(fixture.Addresses.BaseUri(Protocol.GraphQL, Transport.Http), "/graphql");
        var query = JsonSerializer.Serialize(new
        {
            query = "query($p:String!,$n:Int){searchAuthors(phrase:$p,limit:$n){id name again:name andAgain:name country}}",
            variables = new { p = Emoji[..2], n = LongNames },
        });
        using var answer = await http.PostAsync(graphql, new StringContent(query, Encoding.UTF8, "application/json"), Token);
        var body = await answer.Content.ReadAsByteArrayAsync(Token);
        Assert.Equal(LongNames, JsonDocument.Parse(body).RootElement.GetProperty("data").GetProperty("searchAuthors").GetArrayLength());
        await AssertChargedAsync(Protocol.GraphQL, "/graphql", body);

        var search = await GrpcCalls.CallAsync(fixture, "protocolbench.v1.Authors/Search",
            new V1.SearchAuthorsRequest { Phrase = Emoji[..2], Limit = LongNames }.ToByteArray(), Token);
        Assert.Equal("0", search.Status);
        Assert.Equal(LongNames, V1.AuthorList.Parser.ParseFrom(search.Message).Authors.Count);
        await AssertChargedAsync(Protocol.Grpc, "/protocolbench.v1.Authors/Search", search.Message);

        Assert.Equal((authorsBefore + LongNames, books), await fixture.CountRowsAsync());
    }

    /// <summary>
    /// A clone is reserved its JSON and its own text beside it (3 MiB for 1 MiB of plain text). In ascending order of what
    /// each answers on a path, so that a line left from the call before cannot stand in for the one it checks. (A file was
    /// reserved its base64 as JSON sends it until row 93; it reserves nothing now: <c>FloorReaderTests</c>.)
    /// </summary>
    [Fact]
    public async Task ACloneIsReservedWhatItSendsOnEveryProtocol()
    {
        var count = Limits.CloneOutputMaxChars / Limits.CloneTextMaxLength;
        string Repeated(char c) => new(c, Limits.CloneTextMaxLength);
        using var http = new HttpClient { Timeout = TimeSpan.FromSeconds(30) };

        var rest = fixture.Addresses.BaseUri(Protocol.Rest, Transport.Http);
        foreach (var text in new[] { Repeated('a'), Repeated('\u0001') })
        {
            await AssertChargedAsync(Protocol.Rest, "/api/payloads/clone", await http.GetByteArrayAsync(
                new Uri(rest, $"/api/payloads/clone?text={Uri.EscapeDataString(text)}&count={count}"), Token));
        }


        var graphql = new Uri(fixture.Addresses.BaseUri(Protocol.GraphQL, Transport.Http), "/graphql");
        foreach (var query in new[] { $"{{clone(text:{JsonSerializer.Serialize(Repeated('a'))},count:{count})}}", $"{{clone(text:{JsonSerializer.Serialize(Repeated('\u0001'))},count:{count})}}" })
        {
            using var answer = await http.PostAsync(graphql, new StringContent(JsonSerializer.Serialize(new { query }), Encoding.UTF8, "application/json"), Token);
            var body = await answer.Content.ReadAsByteArrayAsync(Token);
            Assert.False(JsonDocument.Parse(body).RootElement.TryGetProperty("errors", out _), Encoding.UTF8.GetString(body[..Math.Min(body.Length, 500)]));
            await AssertChargedAsync(Protocol.GraphQL, "/graphql", body);
        }

        foreach (var (path, request) in new (string, IMessage)[]
        {
            ("/protocolbench.v1.Payloads/Clone", new V1.CloneRequest { Text = Repeated('\u0001'), Count = count }),
        })
        {
            var call = await GrpcCalls.CallAsync(fixture, path.TrimStart('/'), request.ToByteArray(), Token);
            Assert.Equal("0", call.Status);
            await AssertChargedAsync(Protocol.Grpc, path, call.Message);
        }
    }

    [Fact]
    public async Task AnAliasLongerThan32CharactersIsRefusedBeforeItRuns()
    {
        using var http = new HttpClient { Timeout = TimeSpan.FromSeconds(30) };
        var graphql = new Uri(fixture.Addresses.BaseUri(Protocol.GraphQL, Transport.Http), "/graphql");
        foreach (var (alias, refused) in new[] { (new string('a', 32), false), (new string('a', 33), true), (new string('a', 30_000), true) })
        {
            var query = JsonSerializer.Serialize(new { query = $"{{searchAuthors(phrase:\"Author - 1\",limit:5000){{{alias}:id}}}}" });
            var watch = Stopwatch.StartNew();
            using var request = new HttpRequestMessage(HttpMethod.Post, graphql) { Content = new StringContent(query, Encoding.UTF8, "application/json") };
            request.Headers.Accept.ParseAdd("application/graphql-response+json");
            using var answer = await http.SendAsync(request, Token);
            var text = await answer.Content.ReadAsStringAsync(Token);
            Assert.Equal(refused ? HttpStatusCode.BadRequest : HttpStatusCode.OK, answer.StatusCode);
            Assert.Equal(refused, text.Contains("\"ALIAS_TOO_LONG\"", StringComparison.Ordinal));
            Assert.True(text.Length < 200_000, $"{text.Length} characters answered for an alias of {alias.Length}.");
            TestContext.Current.TestOutputHelper?.WriteLine($"alias of {alias.Length}: {(int)answer.StatusCode}, {text.Length} characters in {watch.ElapsedMilliseconds} ms");
        }
    }

    /// <summary>The service printed a reservation for this path of at least the answer's bytes (the last: GraphQL is charged again as it writes).</summary>
    private async Task AssertChargedAsync(Protocol protocol, string path, byte[] answer)
    {
        var service = fixture.Services.Processes.Single(p => p.Spec.Protocol == protocol.Service());
        var charged = 0L;
        for (var waited = Stopwatch.StartNew(); charged < answer.Length && waited.Elapsed < TimeSpan.FromSeconds(10); await Task.Delay(50, Token))
        {
            var charges = ChargeLine().Matches(service.Tail()).Where(m => m.Groups["path"].Value == path).ToList();
            charged = charges.Count == 0 ? 0 : long.Parse(charges[^1].Groups["bytes"].Value);
        }

        TestContext.Current.TestOutputHelper?.WriteLine($"{protocol} {path}: {answer.Length} bytes answered, {charged} charged");
        Assert.True(answer.Length > 128 * LongNames, $"{path} answered {answer.Length} bytes: the names are not long.");
        Assert.True(charged >= answer.Length, $"{protocol} {path} answered {answer.Length} bytes and was charged {charged}.\n{service.Tail()}");
    }

    [GeneratedRegex(@"Reserving (?<bytes>\d+) bytes for the answer to (?<path>\S+)|Charged the answer to (?<path>\S+) \d+ bytes: (?<bytes>\d+) reserved")]
    private static partial Regex ChargeLine();
}
