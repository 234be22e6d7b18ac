namespace ProtocolBench.Integration.Tests;

/// <summary>
/// Hostile text, and what a request is charged for it (fault table rows 63 to 67, and 82 for the hub): one rule for a name given twice, for
/// bytes that are not UTF-8 and for a number too long to be one, on every protocol and every way text arrives; answers no
/// larger than what they were charged; and a client that breaks off is not a server error.
/// </summary>
[Collection(SqliteCollection.Name)]
public sealed class HostileTextTests(SqliteServices fixture)
{
    [Fact]
    public async Task ANameGivenTwiceTakesItsLastValueOnEveryProtocol()
    {
        using var http = new HttpClient { Timeout = TimeSpan.FromSeconds(30) };
        var rest = fixture.Addresses.BaseUri(Protocol.Rest, Transport.Http);
        var graphql = new Uri(fixture.Addresses.BaseUri(Protocol.GraphQL, Transport.Http), "/graphql");
        const string Query = "query($c:Int){ints(count:$c)}";

        Assert.Equal(3, await CountIntsAsync(await http.GetAsync(new Uri(rest, "/api/payloads/ints?count=1&count=3"), Token), "values"));
        Assert.Equal(3, await CountIntsAsync(await PostJsonAsync(http, graphql, $$$"""{"query":"{{{Query}}}","variables":{"c":1,"c":3}}"""), "data", "ints"));
        Assert.Equal(1, await CountIntsAsync(await PostJsonAsync(http, graphql, """{"query":"{ints(count:1)}","extensions":{"a":1,"a":2}}"""), "data", "ints"));
        var variables = Uri.EscapeDataString("""{"c":1,"c":3}""");
        Assert.Equal(3, await CountIntsAsync(await http.GetAsync($"{graphql}?query={Uri.EscapeDataString(Query)}&variables={variables}", Token), "data", "ints"));
        Assert.Equal(3, await CountIntsAsync(await http.GetAsync($"{graphql}?query={Uri.EscapeDataString("{ints(count:1)}")}&query={Uri.EscapeDataString("{ints(count:3)}")}", Token), "data", "ints"));

        // GetIntsRequest with count (field 1) given twice: protobuf's rule is the last value.
        var reply = await GrpcCalls.CallAsync(fixture, "protocolbench.v1.Payloads/GetInts", [0x08, 0x01, 0x08, 0x03], Token);
        Assert.Equal("0", reply.Status);
        Assert.Equal(3, V1.IntsReply.Parser.ParseFrom(reply.Message).Values.Count);
        AssertNoErrorLogged();
    }

    [Fact]
    public async Task ANumberTooLongToBeOneIsRefusedByItsLengthWithoutRepeatingIt()
    {
        using var http = new HttpClient { Timeout = TimeSpan.FromSeconds(30) };
        var graphql = new Uri(fixture.Addresses.BaseUri(Protocol.GraphQL, Transport.Http), "/graphql");
        var service = Service(Protocol.GraphQL);
        var digits = new string('9', 400_000);

        var cpu = Cpu(service);
        using var response = await PostJsonAsync(http, graphql, $$$"""{"query":"query($c:Int){ints(count:$c)}","variables":{"c":{{{digits}}}}}""");
        var spent = Cpu(service) - cpu;
        var body = await response.Content.ReadAsStringAsync(Token);

        TestContext.Current.TestOutputHelper?.WriteLine($"{(int)response.StatusCode} in {spent.TotalMilliseconds:F0} ms of server CPU: {body}");
        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Contains("\"code\":\"INVALID_ARGUMENT\"", body);
        Assert.True(body.Length < 300, "The error repeats the input.");
        Assert.True(spent < TimeSpan.FromSeconds(1), $"The refusal cost {spent.TotalSeconds:F2} s of server CPU.");
        AssertNoErrorLogged();
    }

    public static readonly TheoryData<string> NotUtf8 = ["%FF", "%C0%AF", "%ED%A0%80", "%C3"];

    [Theory]
    [MemberData(nameof(NotUtf8))]
    public async Task BytesThatAreNotUtf8AreAnInvalidArgumentHoweverTheyArrive(string escaped)
    {
        using var http = new HttpClient { Timeout = TimeSpan.FromSeconds(30) };
        var rest = fixture.Addresses.BaseUri(Protocol.Rest, Transport.Http);
        var graphql = new Uri(fixture.Addresses.BaseUri(Protocol.GraphQL, Transport.Http), "/graphql");
        var bytes = Convert.FromHexString(escaped.Replace("%", ""));
        var before = await fixture.CountRowsAsync();

        // In a query string: REST's arguments, GraphQL's GET variables and document.
        await AssertInvalidAsync(await http.GetAsync(new Uri(rest, $"/api/payloads/clone?text=a{escaped}a&count=2"), Token));
        await AssertInvalidAsync(await http.GetAsync(new Uri(rest, $"/api/authors/search?phrase=a{escaped}&limit=2"), Token));
        var variables = $"{Uri.EscapeDataString("{\"t\":\"a")}{escaped}{Uri.EscapeDataString("a\"}")}";
        await AssertInvalidAsync(await http.GetAsync($"{graphql}?query={Uri.EscapeDataString("query($t:String!){clone(text:$t,count:2)}")}&variables={variables}", Token));
        await AssertInvalidAsync(await http.GetAsync($"{graphql}?query={Uri.EscapeDataString("{clone(text:\"a")}{escaped}{Uri.EscapeDataString("a\",count:2)}")}", Token));

        // In a JSON body, and in protobuf (CreateAuthorRequest.name).
        var json = Encoding.UTF8.GetBytes("{\"name\":\"a").Concat(bytes).Concat(Encoding.UTF8.GetBytes("a\",\"country\":\"PL\"}")).ToArray();
        await AssertInvalidAsync(await PostJsonAsync(http, new Uri(rest, "/api/authors"), json));
        var query = Encoding.UTF8.GetBytes("{\"query\":\"mutation{createAuthor(input:{name:\\\"a").Concat(bytes).Concat(Encoding.UTF8.GetBytes("\\\",country:\\\"PL\\\"}){id}}\"}")).ToArray();
        await AssertInvalidAsync(await PostJsonAsync(http, graphql, query));
        byte[] create = [0x0A, (byte)(bytes.Length + 1), (byte)'a', .. bytes, 0x12, 0x02, (byte)'P', (byte)'L'];
        Assert.Equal("3", (await GrpcCalls.CallAsync(fixture, "protocolbench.v1.Authors/Create", create, Token)).Status);

        // In a hub message's arguments (CreateAuthor's name, fault table row 82): JSON in a binary frame (a text frame that
        // is not UTF-8 is refused by the WebSocket itself, which closes with 1007), and MessagePack, which stored U+FFFD.
        var hub = RawHub.Address(fixture.Addresses.BaseUri(Protocol.SignalR, Transport.Http));
        using (var jsonHub = await RawHub.OpenAsync(hub, "json", Token))
        {
            await jsonHub.SendJsonAsync([.. "{\"type\":1,\"invocationId\":\"1\",\"target\":\"CreateAuthor\",\"arguments\":[\"a"u8, .. bytes, .. "a\",\"PL\"]}"u8], Token);
            Assert.Contains("\"error\":\"INVALID_ARGUMENT arguments: ", await jsonHub.AnswerAsync("1", TimeSpan.FromSeconds(10), Token));
        }

        using (var messagePackHub = await RawHub.OpenAsync(hub, "messagepack", Token))
        {
            // [1, {}, "1", "CreateAuthor", ["a…a", "PL"]]
            byte[] name = [(byte)'a', .. bytes, (byte)'a'];
            await messagePackHub.SendMessagePackAsync([0x95, 0x01, 0x80, 0xA1, (byte)'1', 0xAC, .. "CreateAuthor"u8, 0x92, (byte)(0xA0 | name.Length), .. name, 0xA2, .. "PL"u8], Token);
            Assert.True(
                await messagePackHub.ReceivedAsync("INVALID_ARGUMENT arguments: "u8.ToArray(), TimeSpan.FromSeconds(10), Token),
                "MessagePack took a name that is not UTF-8.");
        }

        // The same text sent as UTF-8 is taken.
        using var valid = await http.GetAsync(new Uri(rest, "/api/payloads/clone?text=%C3%A9&count=2"), Token);
        Assert.Contains("\"éé\"", await valid.Content.ReadAsStringAsync(Token));
        Assert.Equal(before, await fixture.CountRowsAsync());
        AssertNoErrorLogged();
    }

    [Fact]
    public async Task TextIsChargedTheBytesJsonSendsForIt()
    {
        // 1,024 control characters cloned 1,024 times: 1 MiB of text, 6 MiB of JSON (each is sent as \u0001).
        var text = new string('\u0001', Limits.CloneTextMaxLength);
        var count = Limits.CloneOutputMaxChars / text.Length;
        Assert.Equal(6L * Limits.CloneOutputMaxChars, ResponseSize.Clone(text, count));

        using var http = new HttpClient { Timeout = TimeSpan.FromSeconds(30) };
        var graphql = new Uri(fixture.Addresses.BaseUri(Protocol.GraphQL, Transport.Http), "/graphql");
        var variables = JsonSerializer.Serialize(new { t = text, n = count });

        // Six aliases were under the cost limit when text was counted by characters (37.7 MB answered); two are over it now.
        using var two = await PostJsonAsync(http, graphql, $$"""{"query":"query($t:String!,$n:Int){a:clone(text:$t,count:$n) b:clone(text:$t,count:$n)}","variables":{{variables}}}""");
        Assert.Equal(HttpStatusCode.OK, two.StatusCode);
        Assert.Contains("COMPLEXITY", await two.Content.ReadAsStringAsync(Token));

        // One is served, and its answer is no larger than what it was charged: 64 bytes a point of cost.
        using var request = new HttpRequestMessage(HttpMethod.Post, graphql)
        {
            Content = new StringContent($$"""{"query":"query($t:String!,$n:Int){clone(text:$t,count:$n)}","variables":{{variables}}}""", Encoding.UTF8, "application/json"),
        };
        request.Headers.Add("GraphQL-Cost", "report");
        using var one = await http.SendAsync(request, Token);
        var answer = await one.Content.ReadAsByteArrayAsync(Token);
        using var document = JsonDocument.Parse(answer);
        var complexity = document.RootElement.GetProperty("extensions").GetProperty("cost").GetProperty("complexity").GetDouble();
        var clone = document.RootElement.GetProperty("data").GetProperty("clone").GetString()!;
        Assert.Equal(Limits.CloneOutputMaxChars, clone.Length);
        Assert.True(answer.Length <= (complexity * 64) + 256, $"{answer.Length} bytes answered for a cost of {complexity} points.");
        AssertNoErrorLogged();
    }

    [Fact]
    public async Task AClientThatBreaksHttp2IsNotAServerError()
    {
        foreach (var (protocol, path, body) in new[]
        {
            (Protocol.Rest, "/api/authors", "{\"name\":\"Too long\",\"country\":\"PL\"}"u8.ToArray()),
            (Protocol.GraphQL, "/graphql", "{\"query\":\"{ints(count:1)}\"}"u8.ToArray()),
        })
        {
            // Bodies longer than the Content-Length they announce, on 50 streams of one connection.
            var baseUri = fixture.Addresses.BaseUri(protocol, Transport.Https);
            await using (var client = await StalledHttp2Reader.ConnectAsync(baseUri, fixture.ClientOptions.LoadTrustedCertificate(), Token))
            {
                await client.RequestAsync(50, "POST", baseUri, path, [("content-type", "application/json"), ("content-length", "5")], body, Token);
                await Task.WhenAny(client.ClosedByServer, Task.Delay(TimeSpan.FromSeconds(2), Token));
            }

            Assert.False(Service(protocol).HasExited);
        }

        AssertNoErrorLogged();
        foreach (var protocol in new[] { Protocol.Rest, Protocol.Grpc, Protocol.GraphQL })
        {
            Assert.Equal(int.MaxValue, await fixture.Client(protocol, Transport.Https).GetIntMaxAsync(Token));
        }
    }

    private ServiceProcess Service(Protocol protocol) => fixture.Services.Processes.Single(p => p.Spec.Protocol == protocol.Service());

    private void AssertNoErrorLogged()
    {
        foreach (var service in fixture.Services.Processes)
        {
            Assert.DoesNotContain("fail:", service.Tail());
            Assert.DoesNotContain("crit:", service.Tail());
        }
    }

    private static TimeSpan Cpu(ServiceProcess service)
    {
        using var process = Process.GetProcessById(service.Id);
        return process.TotalProcessorTime;
    }

    private static Task<HttpResponseMessage> PostJsonAsync(HttpClient http, Uri uri, string json) =>
        PostJsonAsync(http, uri, Encoding.UTF8.GetBytes(json));

    private static Task<HttpResponseMessage> PostJsonAsync(HttpClient http, Uri uri, byte[] json)
    {
        var content = new ByteArrayContent(json);
        content.Headers.ContentType = new("application/json");
        return http.PostAsync(uri, content, Token);
    }

    private static async Task<int> CountIntsAsync(HttpResponseMessage response, params string[] path)
    {
        using (response)
        {
            var body = await response.Content.ReadAsStringAsync(Token);
            Assert.True(response.StatusCode == HttpStatusCode.OK, $"{(int)response.StatusCode}: {body}");
            var element = JsonDocument.Parse(body).RootElement;
            foreach (var name in path)
            {
                element = element.GetProperty(name);
            }

            return element.GetArrayLength();
        }
    }

    private static async Task AssertInvalidAsync(HttpResponseMessage response)
    {
        using (response)
        {
            var body = await response.Content.ReadAsStringAsync(Token);
            Assert.True(response.StatusCode == HttpStatusCode.BadRequest, $"{(int)response.StatusCode} for {response.RequestMessage?.RequestUri}: {body}");
        }
    }
}
