namespace ProtocolBench.Integration.Tests;

/// <summary>
/// gRPC as a client ProtocolBench did not write sees it: @grpc/grpc-js, from nothing but the .proto, through the example
/// docs/services.md gives users (src/Grpc.Service/examples/node-client.mjs). Its own checks pass, and bad arguments are
/// INVALID_ARGUMENT with REST's message, whatever the call reserves from the response budget (those whose answer could
/// be large used to end without a grpc-status: grpc-js said "Call ended without gRPC status").
/// </summary>
[Collection(SqliteCollection.Name)]
public sealed class GrpcJsClientTests(SqliteServices fixture)
{
    /// <summary>The gRPC client docs/services.md gives users, and its folder.</summary>
    private const string ExampleFolder = "src/Grpc.Service/examples";

    private const string Example = "node-client.mjs";

    private static readonly string Text1024 = new('b', 1024);

    /// <summary>Each call as grpc-js sends it, and the same call on the project's REST client, whose message is the reference.</summary>
    private static readonly (string Name, string Service, string Method, object Request, Func<IProtocolClient, CancellationToken, Task> OnRest)[] BadArguments =
    [
        ("ints count 100001", "Payloads", "GetInts", new { count = Limits.IntsCountMax + 1 }, (c, t) => c.GetIntsAsync(Limits.IntsCountMax + 1, t)),
        ("clone 1024 chars × 100000", "Payloads", "Clone", new { text = Text1024, count = 100_000 }, (c, t) => c.CloneAsync(Text1024, 100_000, t)),
        ("search phrase empty", "Authors", "Search", new { phrase = "" }, (c, t) => c.SearchAuthorsAsync("", null, t)),
        ("search limit 5001", "Authors", "Search", new { phrase = "Author - 1", limit = Limits.SearchLimitMax + 1 }, (c, t) => c.SearchAuthorsAsync("Author - 1", Limits.SearchLimitMax + 1, t)),
        ("list take 1001", "Authors", "List", new { take = Limits.ListTakeMax + 1 }, (c, t) => c.ListAuthorsAsync(0, Limits.ListTakeMax + 1, t)),
        // Small answers, never reserved: these were always right.
        ("ints count -1", "Payloads", "GetInts", new { count = -1 }, (c, t) => c.GetIntsAsync(-1, t)),
        ("list take 0", "Authors", "List", new { take = 0 }, (c, t) => c.ListAuthorsAsync(0, 0, t)),
    ];

    [Theory]
    [InlineData(Transport.Http)]
    [InlineData(Transport.Https)]
    public async Task BadArgumentsAreInvalidArgumentWithRestsMessageWhateverTheCallReserves(Transport transport)
    {
        var calls = BadArguments.Select(c => new { name = c.Name, service = c.Service, method = c.Method, request = c.Request }).ToList<object>();
        // One good call of each size class, so the client is seen to work: a small answer and one that reserves budget.
        calls.Add(new { name = "int max", service = "Payloads", method = "GetIntMax", request = new { } });
        calls.Add(new { name = "ints count 100000", service = "Payloads", method = "GetInts", request = new { count = Limits.IntsCountMax } });

        var results = await CallWithGrpcJsAsync(transport, calls);

        Assert.Equal(int.MaxValue, results["int max"]["reply"]!["value"]!.GetValue<int>());
        Assert.Equal(Limits.IntsCountMax, results["ints count 100000"]["reply"]!["values"]!.AsArray().Count);
        var rest = fixture.Client(Protocol.Rest, Transport.Http);
        foreach (var bad in BadArguments)
        {
            var expected = await Assert.ThrowsAsync<ProtocolClientException>(() => bad.OnRest(rest, Token));
            Assert.Equal("INVALID_ARGUMENT", expected.Code);
            Assert.Equal(("INVALID_ARGUMENT", expected.Message), (results[bad.Name]["code"]!.GetValue<string>(), results[bad.Name]["details"]!.GetValue<string>()));
        }
    }

    /// <summary>The example as a user runs it: every kind of call once (reflection, health, searches, files, a stream), checked.</summary>
    [Theory]
    [InlineData(Transport.Http)]
    [InlineData(Transport.Https)]
    public async Task TheExamplesOwnChecksPass(Transport transport)
    {
        var folder = await NodePrograms.PrepareAsync(ExampleFolder, Token);
        var address = fixture.Addresses.BaseUri(Protocol.Grpc, transport).ToString().TrimEnd('/');
        var (exit, output, error) = await NodePrograms.RunAsync("node", [Example, address], folder, TimeSpan.FromMinutes(2), Token);
        TestContext.Current.TestOutputHelper?.WriteLine(output + error);
        Assert.True(exit == 0, $"{Example} {address} exited {exit}:\n{output}{error}");
        Assert.EndsWith("all checks passed", output.TrimEnd());
        Assert.DoesNotContain("FAIL", output);
    }

    /// <summary>Runs the example with a file of calls against the gRPC service; its results by call name.</summary>
    private Task<Dictionary<string, JsonNode>> CallWithGrpcJsAsync(Transport transport, IReadOnlyList<object> calls) =>
        NodePrograms.CallAsync(ExampleFolder, Example, fixture.Addresses.BaseUri(Protocol.Grpc, transport).ToString(), calls, [], Token);
}
