using System.Net.Http.Json;
using Google.Protobuf;

namespace ProtocolBench.Integration.Tests;

/// <summary>
/// Fault table rows 6, 7 and 88: one bad input gets one answer, INVALID_ARGUMENT, on every protocol, with nothing written.
/// gRPC read the low 32 bits of a 64-bit varint in an int32 field (an update of author 2³²+5 rewrote author 5) and skipped a
/// field sent with another wire type as unknown; REST answered route ids that are not an Int32 with a bare 404; GraphQL
/// answered a value of the wrong type with graphql-dotnet's codes and extensions.
/// </summary>
[Collection(SqliteCollection.Name)]
public sealed class OneAnswerTests(SqliteServices fixture)
{
    private const string NotAnId = "id must be a whole number from -2147483648 to 2147483647.";

    private const string NotACount = "count must be a whole number from -2147483648 to 2147483647.";

    public static readonly TheoryData<string, string, byte[], string> GrpcRefusals = new()
    {
        // Authors/Update { id: 2³²+5, name: "Rewritten", country: "XX" }: author 5 must stay as it is.
        { "an id past Int32", "protocolbench.v1.Authors/Update", [.. Varint(1, (1L << 32) + 5), .. Text(2, "Rewritten"), .. Text(3, "XX")], NotAnId },
        { "a count past Int32", "protocolbench.v1.Payloads/GetInts", Varint(1, (1L << 32) + 3), NotACount },
        { "a shape id past Int32", "protocolbench.v1.Shapes/Get", [.. Text(1, "large"), .. Varint(2, (1L << 32) + 7)], NotAnId },
        { "a count sent as text", "protocolbench.v1.Shapes/List", [.. Text(1, "large"), .. Text(2, "7")], NotACount },
        { "a count sent as a double", "protocolbench.v1.Shapes/List", [.. Text(1, "large"), .. Double(2, 7.0)], NotACount },
        { "a name sent as a number", "protocolbench.v1.Authors/Create", [.. Varint(1, 7), .. Text(2, "XX")], "name must be text." },
    };

    [Theory]
    [MemberData(nameof(GrpcRefusals))]
    public async Task GrpcRefusesAValueProtobufWouldReadAsAnother(string what, string method, byte[] request, string message)
    {
        var rest = fixture.Client(Protocol.Rest, Transport.Http);
        var author = await rest.GetAuthorAsync(5, Token);
        var rows = await fixture.CountRowsAsync();

        var (status, _, detail) = await GrpcCalls.CallAsync(fixture, method, request, Token);

        Assert.True((status, detail) == ("3", message), $"{what}: grpc-status {status}, \"{detail}\"");
        Assert.Equivalent(author, await rest.GetAuthorAsync(5, Token));
        Assert.Equal(rows, await fixture.CountRowsAsync());
        // A negative int32 is ten bytes on the wire and still an Int32: it reaches the domain, which judges it.
        var (negative, _, reason) = await GrpcCalls.CallAsync(fixture, "protocolbench.v1.Payloads/GetInts", Varint(1, -1), Token);
        Assert.Equal(("3", "count must be between 0 and 100000 (was -1)."), (negative, reason));
        Assert.Equal(int.MaxValue, await fixture.Client(Protocol.Grpc, Transport.Http).GetIntMaxAsync(Token));
    }

    [Theory]
    [InlineData("GET", "api/authors/abc")]
    [InlineData("GET", "api/authors/1.5")]
    [InlineData("GET", "api/authors/2147483648")]
    [InlineData("PUT", "api/authors/4294967301")]
    [InlineData("DELETE", "api/authors/4294967301")]
    [InlineData("GET", "api/shapes/large/4294967303")]
    public async Task RestAnswersARouteIdThatIsNotAnInt32AsAnInvalidArgument(string verb, string path)
    {
        var rows = await fixture.CountRowsAsync();
        using var http = new HttpClient { BaseAddress = fixture.Addresses.BaseUri(Protocol.Rest, Transport.Http) };
        using var request = new HttpRequestMessage(new HttpMethod(verb), path);
        if (verb == "PUT")
        {
            request.Content = JsonContent.Create(new { name = "Rewritten", country = "XX" });
        }

        using var response = await http.SendAsync(request, Token);
        var problem = JsonNode.Parse(await response.Content.ReadAsStringAsync(Token))!;

        Assert.Equal(400, (int)response.StatusCode);
        Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
        Assert.Equal(("INVALID_ARGUMENT", "id", NotAnId), ((string?)problem["code"], (string?)problem["field"], (string?)problem["detail"]));
        Assert.Equal(rows, await fixture.CountRowsAsync());
    }

    [Fact]
    public async Task RestAnswersAQueryValueThatIsNotAnInt32InTheSameWords()
    {
        using var http = new HttpClient { BaseAddress = fixture.Addresses.BaseUri(Protocol.Rest, Transport.Http) };
        using var response = await http.GetAsync("api/payloads/ints?count=4294967299", Token);
        var problem = JsonNode.Parse(await response.Content.ReadAsStringAsync(Token))!;
        Assert.Equal(400, (int)response.StatusCode);
        Assert.Equal(("INVALID_ARGUMENT", "count", NotACount), ((string?)problem["code"], (string?)problem["field"], (string?)problem["detail"]));
    }

    [Theory]
    [InlineData("a literal past Int32", """{"query":"{ ints(count: 2147483648) }"}""")]
    [InlineData("a literal of the wrong type", """{"query":"{ ints(count: \"x\") }"}""")]
    [InlineData("a variable of the wrong type", """{"query":"query($c: Int) { ints(count: $c) }","variables":{"c":"abc"}}""")]
    [InlineData("a variable past Int32", """{"query":"query($c: Int) { ints(count: $c) }","variables":{"c":4294967299}}""")]
    public async Task GraphQLAnswersAValueOfTheWrongTypeWithOnlyItsMessageAndCode(string what, string body)
    {
        using var http = new HttpClient { BaseAddress = fixture.Addresses.BaseUri(Protocol.GraphQL, Transport.Http) };
        using var content = new StringContent(body, System.Text.Encoding.UTF8, "application/json");
        using var response = await http.PostAsync("graphql", content, Token);
        var error = JsonNode.Parse(await response.Content.ReadAsStringAsync(Token))!["errors"]![0]!;

        var extensions = error["extensions"]!.AsObject();
        Assert.True(extensions.Select(e => e.Key).SequenceEqual(["code"]), $"{what}: {extensions.ToJsonString()}");
        Assert.Equal("INVALID_ARGUMENT", (string?)extensions["code"]);
        Assert.False(string.IsNullOrEmpty((string?)error["message"]));
    }

    [Fact]
    public async Task GraphQLDomainErrorsCarryTheirCodeAndFieldOnly()
    {
        using var http = new HttpClient { BaseAddress = fixture.Addresses.BaseUri(Protocol.GraphQL, Transport.Http) };
        using var content = new StringContent("""{"query":"{ author(id: 0) { id } }"}""", System.Text.Encoding.UTF8, "application/json");
        using var response = await http.PostAsync("graphql", content, Token);
        var extensions = JsonNode.Parse(await response.Content.ReadAsStringAsync(Token))!["errors"]![0]!["extensions"]!.AsObject();
        Assert.Equal("""{"code":"INVALID_ARGUMENT","field":"id"}""", extensions.ToJsonString());
    }

    // Each request as protobuf's own writer puts it on the wire, with the values and wire types chosen here.
    private static byte[] Varint(int field, long value) => Written(o =>
    {
        o.WriteTag(field, WireFormat.WireType.Varint);
        o.WriteInt64(value);
    });

    private static byte[] Text(int field, string text) => Written(o =>
    {
        o.WriteTag(field, WireFormat.WireType.LengthDelimited);
        o.WriteString(text);
    });

    private static byte[] Double(int field, double value) => Written(o =>
    {
        o.WriteTag(field, WireFormat.WireType.Fixed64);
        o.WriteDouble(value);
    });

    private static byte[] Written(Action<CodedOutputStream> write)
    {
        using var buffer = new MemoryStream();
        var output = new CodedOutputStream(buffer);
        write(output);
        output.Flush();
        return buffer.ToArray();
    }
}
