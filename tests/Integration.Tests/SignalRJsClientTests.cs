namespace ProtocolBench.Integration.Tests;

/// <summary>
/// The SignalR service as a client ProtocolBench did not write sees it: Node's @microsoft/signalr (tests/signalr-js-client),
/// over a WebSocket on HTTP and HTTPS, speaking JSON and MessagePack. Values equal REST's, files arrive byte-exact as one
/// message and as a stream, and a bad argument or an unknown id carries REST's code and message.
/// </summary>
[Collection(SqliteCollection.Name)]
public sealed class SignalRJsClientTests(SqliteServices fixture)
{
    private static readonly JsonSerializerOptions CaseInsensitive = new() { PropertyNameCaseInsensitive = true };

    private static readonly (string Name, string Method, object?[] Args, Func<IProtocolClient, CancellationToken, Task> OnRest)[] Refused =
    [
        ("ints count -1", "GetInts", [-1], (c, t) => c.GetIntsAsync(-1, t)),
        ("clone 1024 chars × 100000", "Clone", [new string('b', 1024), 100_000], (c, t) => c.CloneAsync(new string('b', 1024), 100_000, t)),
        ("search phrase empty", "SearchAuthors", ["", null], (c, t) => c.SearchAuthorsAsync("", null, t)),
        ("list take 1001", "ListAuthors", [0, Limits.ListTakeMax + 1], (c, t) => c.ListAuthorsAsync(0, Limits.ListTakeMax + 1, t)),
        ("author 999999", "GetAuthor", [999_999], (c, t) => c.GetAuthorAsync(999_999, t)),
    ];

    public static readonly TheoryData<Transport, string> Cases = new()
    {
        { Transport.Http, "json" }, { Transport.Https, "json" }, { Transport.Http, "messagepack" }, { Transport.Https, "messagepack" },
    };

    [Theory]
    [MemberData(nameof(Cases))]
    public async Task NodesSignalRClientGetsWhatRestGives(Transport transport, string hubProtocol)
    {
        var calls = Refused.Select(c => new { name = c.Name, method = c.Method, args = c.Args, stream = false }).ToList<object>();
        calls.Add(new { name = "int max", method = "GetIntMax", args = Array.Empty<object>(), stream = false });
        calls.Add(new { name = "ints 10000", method = "GetInts", args = new object[] { 10_000 }, stream = false });
        calls.Add(new { name = "sample", method = "GetSample", args = Array.Empty<object>(), stream = false });
        calls.Add(new { name = "search", method = "SearchAuthors", args = new object?[] { "Author - 1000", null }, stream = false });
        calls.Add(new { name = "text file", method = "GetTextFile", args = Array.Empty<object>(), stream = false });
        calls.Add(new { name = "pdf", method = "GetPdf", args = Array.Empty<object>(), stream = false });
        calls.Add(new { name = "pdf stream", method = "StreamPdf", args = Array.Empty<object>(), stream = true });

        var results = await CallWithNodeAsync(transport, hubProtocol, calls);

        var rest = fixture.Client(Protocol.Rest, Transport.Http);
        Assert.Equal(int.MaxValue, Ok(results, "int max").GetValue<int>());
        Assert.Equal(await rest.GetIntsAsync(10_000, Token), Ok(results, "ints 10000").Deserialize<int[]>());
        Assert.Equal(await rest.GetSampleAsync(Token), Ok(results, "sample").Deserialize<AuthorDto>(CaseInsensitive));
        Assert.Equal(await rest.SearchAuthorsAsync("Author - 1000", null, Token), Ok(results, "search").Deserialize<List<AuthorDto>>(CaseInsensitive)!);
        AssertFile(Ok(results, "text file"), Expected.TextFile);
        AssertFile(Ok(results, "pdf"), Expected.Pdf);
        AssertFile(Ok(results, "pdf stream"), Expected.Pdf);
        foreach (var refused in Refused)
        {
            var expected = await Assert.ThrowsAsync<ProtocolClientException>(() => refused.OnRest(rest, Token));
            Assert.Equal((expected.Code, expected.Message), (results[refused.Name]["code"]!.GetValue<string>(), results[refused.Name]["message"]!.GetValue<string>()));
        }
    }

    /// <summary>
    /// Fault table row 79 with the client most hubs meet: @microsoft/signalr's <c>send</c>, which invokes without an
    /// invocation id, 20 times for the PDF, then an <c>invoke</c> of it on the same connection. Each send reserved an answer
    /// that was never written nor returned, so the invoke found the budget spent and got no answer; now it gets the PDF.
    /// </summary>
    [Fact]
    public async Task NodesSendsLeaveTheBudgetFree()
    {
        var calls = Enumerable.Range(0, 20).Select(i => new { name = $"send {i}", method = "GetPdf", args = Array.Empty<object>(), stream = false, send = true }).ToList<object>();
        calls.Add(new { name = "pdf", method = "GetPdf", args = Array.Empty<object>(), stream = false, send = false });

        var results = await CallWithNodeAsync(Transport.Http, "json", calls);

        Assert.All(Enumerable.Range(0, 20), i => Assert.Equal("SENT", results[$"send {i}"]["code"]!.GetValue<string>()));
        AssertFile(Ok(results, "pdf"), Expected.Pdf);
        Assert.Equal(Expected.Pdf, await fixture.Client(Protocol.SignalR, Transport.Http).GetPdfAsync(Token));
    }

    private static JsonNode Ok(Dictionary<string, JsonNode> results, string name)
    {
        Assert.Equal("OK", results[name]["code"]!.GetValue<string>());
        return results[name]["result"]!;
    }

    private static void AssertFile(JsonNode file, byte[] expected)
    {
        Assert.Equal(expected.Length, file["length"]!.GetValue<int>());
        Assert.Equal(Expected.Sha256(expected), file["sha256"]!.GetValue<string>());
    }

    /// <summary>Runs tests/signalr-js-client/calls.mjs against the SignalR service; its results by call name.</summary>
    private Task<Dictionary<string, JsonNode>> CallWithNodeAsync(Transport transport, string hubProtocol, IReadOnlyList<object> calls) =>
        NodePrograms.CallAsync(
            "tests/signalr-js-client", "calls.mjs", fixture.Addresses.BaseUri(Protocol.SignalR, transport).ToString(), calls, ["--protocol", hubProtocol], Token);
}
