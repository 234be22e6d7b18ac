using System.Collections.Concurrent;
using ProtocolBench.Lab.Conditions;
using ProtocolBench.Lab.Runs;
using ProtocolBench.Lab.Stacks;

namespace ProtocolBench.Integration.Tests;

/// <summary>
/// --client: a call handed to another stack is the call this project's client sends, and that stack's answers meet the
/// same checks. The requests go out through curl (a client this project did not write) and through the JMeter, Python and Node stacks'
/// own programs (tools/stacks/); the answers are read back and checked here.
/// </summary>
[Collection(SqliteCollection.Name)]
public sealed class ClientStackTests(SqliteServices fixture)
{
    private static readonly Protocol[] Portable = [Protocol.Rest, Protocol.GraphQL, Protocol.Grpc];

    /// <summary>Each stack's versions or why it cannot run, read once (the JMeter stack starts a JVM to say them).</summary>
    private static readonly ConcurrentDictionary<ClientStack, StackProbe> Probes = new();

    /// <summary>Skips the test, with the message a user gets and the line that installs it, when the stack cannot run here.</summary>
    private static void SkipUnlessFound(ClientStack client)
    {
        var probe = Probes.GetOrAdd(client, ClientStacks.Probe);
        Assert.SkipUnless(probe.Found, probe.Missing);
    }

    private static IEnumerable<Scenario> Reads => Catalogue.All.Where(s => s.HasRequest && !s.Creates);

    /// <summary>Every read over every protocol that has it, sent by curl as recorded and its answer read and checked by the scenario's checks.</summary>
    [Fact]
    public async Task EveryReadsCallSentByCurlPassesTheScenariosChecks()
    {
        var made = 0;
        foreach (var scenario in Reads)
        {
            foreach (var protocol in Portable.Where(scenario.AppliesTo))
            {
                if (await PortableScenario.RecordAsync(scenario, protocol, "") is not { } call)
                {
                    // Only a gRPC stream has no single answer to hand over.
                    Assert.Equal((Protocol.Grpc, "pdf-raw"), (protocol, scenario.Name));
                    continue;
                }

                await PortableScenario.CheckAsync(scenario, protocol, "", await CurlAsync(call));
                made++;
            }
        }

        Assert.True(made >= 50, $"only {made} calls were made");
    }

    /// <summary>The checks can fail: a changed value, a changed byte of a file and a GraphQL error are each refused.</summary>
    [Fact]
    public async Task AWrongAnswerFailsTheChecks()
    {
        var intMax = Catalogue.Named("int-max");
        var answer = await CurlAsync((await PortableScenario.RecordAsync(intMax, Protocol.Rest, ""))!);
        await PortableScenario.CheckAsync(intMax, Protocol.Rest, "", answer);
        var changed = System.Text.Encoding.UTF8.GetBytes(System.Text.Encoding.UTF8.GetString(answer).Replace("2147483647", "2147483646", StringComparison.Ordinal));
        await Assert.ThrowsAsync<InvalidDataException>(() => PortableScenario.CheckAsync(intMax, Protocol.Rest, "", changed));

        var text = Catalogue.Named("text-file");
        var file = await CurlAsync((await PortableScenario.RecordAsync(text, Protocol.Grpc, ""))!);
        await PortableScenario.CheckAsync(text, Protocol.Grpc, "", file);
        file[^1] ^= 1;
        await Assert.ThrowsAsync<InvalidDataException>(() => PortableScenario.CheckAsync(text, Protocol.Grpc, "", file));

        // A hub's result as another stack hands it over: JSON, property names in either case.
        var sample = Catalogue.Named("sample");
        var hubAnswer = System.Text.Json.JsonSerializer.SerializeToUtf8Bytes(await fixture.Client(Protocol.SignalR, Transport.Http).CallAsync(Operation.GetSample.With(), Token));
        await PortableScenario.CheckAsync(sample, Protocol.SignalRMessagePack, "", hubAnswer);
        await Assert.ThrowsAsync<InvalidDataException>(() => PortableScenario.CheckAsync(intMax, Protocol.SignalR, "", "2147483646"u8.ToArray()));

        var error = """{"errors":[{"message":"no","extensions":{"code":"INVALID_ARGUMENT"}}]}"""u8.ToArray();
        var refused = await Assert.ThrowsAsync<ProtocolClientException>(() => PortableScenario.CheckAsync(intMax, Protocol.GraphQL, "", error));
        Assert.Equal("INVALID_ARGUMENT", refused.Code);
    }

    /// <summary>
    /// Another stack (JMeter's, Python's, Node's) makes a cell over each of its protocols and transports, kept and new
    /// connections: its answer passes the checks and it reports every iteration. CI installs the stacks; without one its
    /// tests are skipped, and CI fails on that skip.
    /// </summary>
    [Theory]
    [InlineData(ClientStack.Jmeter, "int-max", Protocol.Rest, Transport.Http, false)]
    [InlineData(ClientStack.Jmeter, "sample", Protocol.GraphQL, Transport.Https, false)]
    [InlineData(ClientStack.Jmeter, "text-file", Protocol.Grpc, Transport.Https, false)]
    [InlineData(ClientStack.Jmeter, "clone-hello", Protocol.Grpc, Transport.Http, true)]
    [InlineData(ClientStack.Jmeter, "ints", Protocol.Rest, Transport.Https, true)]
    [InlineData(ClientStack.Python, "int-max", Protocol.Rest, Transport.Http, false)]
    [InlineData(ClientStack.Python, "sample", Protocol.GraphQL, Transport.Https, false)]
    [InlineData(ClientStack.Python, "text-file", Protocol.Grpc, Transport.Https, false)]
    [InlineData(ClientStack.Python, "clone-hello", Protocol.Grpc, Transport.Http, true)]
    [InlineData(ClientStack.Python, "ints", Protocol.Rest, Transport.Https, true)]
    [InlineData(ClientStack.Node, "int-max", Protocol.Rest, Transport.Http, false)]
    [InlineData(ClientStack.Node, "sample", Protocol.GraphQL, Transport.Https, false)]
    [InlineData(ClientStack.Node, "text-file", Protocol.Grpc, Transport.Https, false)]
    [InlineData(ClientStack.Node, "clone-hello", Protocol.Grpc, Transport.Http, true)]
    [InlineData(ClientStack.Node, "ints", Protocol.Rest, Transport.Https, true)]
    [InlineData(ClientStack.Node, "sample", Protocol.SignalR, Transport.Https, false)]
    [InlineData(ClientStack.Node, "text-file", Protocol.SignalRMessagePack, Transport.Http, false)]
    [InlineData(ClientStack.Node, "medium-100", Protocol.SignalRMessagePack, Transport.Https, true)]
    [InlineData(ClientStack.Node, "ints", Protocol.SignalR, Transport.Http, true)]
    public async Task AForeignStackMakesACellWhoseAnswerPassesTheChecks(ClientStack client, string name, Protocol protocol, Transport transport, bool newConnection)
    {
        SkipUnlessFound(client);
        var scenario = Catalogue.Named(name);
        var call = (await PortableScenario.RecordAsync(scenario, protocol, ""))!;
        var stack = new StackRunner(client, fixture.ClientOptions with { TrustedCertificatePath = ProjectPaths.TrustedCertificate });
        var measured = await stack.MeasureAsync(new StackRunner.Cell(call, transport, newConnection), new StackRunner.Iterations(2, false, TimeSpan.Zero), Token);
        await PortableScenario.CheckAsync(scenario, protocol, "", Assert.Single(measured.Answers));
        Assert.Equal(2, measured.Iterations.Count);
        Assert.All(measured.Iterations, t => Assert.True(t >= 0));
    }

    /// <summary>
    /// A create through another stack: every answer goes back and is checked (a new author of the run's name each
    /// time), over REST and gRPC; what it wrote is deleted by its name, and nothing else changed.
    /// </summary>
    [Theory]
    [InlineData(ClientStack.Jmeter, Protocol.Rest)]
    [InlineData(ClientStack.Jmeter, Protocol.Grpc)]
    [InlineData(ClientStack.Python, Protocol.Rest)]
    [InlineData(ClientStack.Python, Protocol.Grpc)]
    [InlineData(ClientStack.Node, Protocol.Rest)]
    [InlineData(ClientStack.Node, Protocol.Grpc)]
    [InlineData(ClientStack.Node, Protocol.SignalRMessagePack)]
    public async Task AForeignStackCreatesANewAuthorOnEveryCallAndEachIsChecked(ClientStack client, Protocol protocol)
    {
        SkipUnlessFound(client);
        var created = new CreatedAuthors("test", RunDescription.NewId(DateTimeOffset.UtcNow));
        var create = Catalogue.Named("create");
        var marker = created.Name("create");
        var before = await fixture.CountRowsAsync();
        var call = (await PortableScenario.RecordAsync(create, protocol, marker))!;
        var stack = new StackRunner(client, fixture.ClientOptions);
        var measured = await stack.MeasureAsync(new StackRunner.Cell(call, Transport.Http, false, EveryAnswer: true), new StackRunner.Iterations(2, false, TimeSpan.Zero), Token);
        var authors = new List<AuthorDto>();
        foreach (var answer in measured.Answers)
        {
            authors.Add((AuthorDto)await PortableScenario.CheckAsync(create, protocol, marker, answer));
        }

        Assert.Equal(measured.Answers.Count, authors.Select(a => a.Id).Distinct().Count());
        Assert.InRange(authors.Count, 2, 3);
        await Assert.ThrowsAsync<InvalidDataException>(() => PortableScenario.CheckAsync(create, protocol, created.Name("other"), measured.Answers[0]));
        Assert.Equal(authors.Count, await CreatedAuthors.DeleteAsync(fixture.Client(Protocol.Rest, Transport.Http), created.Prefix, Token));
        Assert.Equal(before, await fixture.CountRowsAsync());
    }

    /// <summary>
    /// The load command's paced stream through another stack: every paced request comes back in order with its lateness
    /// and time, the first answer passes the checks, and no answer differs from it (else it would come back to be checked).
    /// </summary>
    [Theory]
    [InlineData(ClientStack.Jmeter, Protocol.Rest, Transport.Https, true)]
    [InlineData(ClientStack.Jmeter, Protocol.Grpc, Transport.Http, false)]
    [InlineData(ClientStack.Python, Protocol.Rest, Transport.Http, false)]
    [InlineData(ClientStack.Python, Protocol.Grpc, Transport.Https, true)]
    [InlineData(ClientStack.Node, Protocol.GraphQL, Transport.Https, false)]
    [InlineData(ClientStack.Node, Protocol.Grpc, Transport.Http, true)]
    [InlineData(ClientStack.Node, Protocol.SignalRMessagePack, Transport.Http, false)]
    public async Task AForeignStackSendsThePacedStreamOnItsScheduleAndEveryAnswerIsChecked(ClientStack client, Protocol protocol, Transport transport, bool newConnection)
    {
        SkipUnlessFound(client);
        var scenario = Catalogue.Named("sample");
        var call = (await PortableScenario.RecordAsync(scenario, protocol, ""))!;
        var stack = new StackRunner(client, fixture.ClientOptions with { TrustedCertificatePath = ProjectPaths.TrustedCertificate });
        var seen = new List<int>();

        var stream = await stack.PaceAsync(new StackRunner.Cell(call, transport, newConnection), new StackRunner.Pacing(20, 6, 2, TimeSpan.FromMilliseconds(50)), r => seen.Add(r.Index), Token);

        await PortableScenario.CheckAsync(scenario, protocol, "", stream.First!);
        Assert.Equal([0, 1, 2, 3, 4, 5], seen);
        Assert.All(stream.Requests, r => Assert.Equal((OutcomeKind.Ok, null), (r.Outcome, r.Answer)));
        Assert.All(stream.Requests, r => Assert.True(r.ElapsedMs >= 0 && r.LateMs >= -1, $"request {r.Index}: late {r.LateMs} ms, took {r.ElapsedMs} ms"));
    }

    /// <summary>
    /// Another stack says what went wrong when the service refuses the call (REST's status, gRPC's), rather than timing
    /// the refusal; in the paced stream it reports each refused request by its code and goes on.
    /// </summary>
    [Theory]
    [InlineData(ClientStack.Jmeter, Protocol.Rest, "api/no-such-route", "HTTP 404", "HTTP_404")]
    [InlineData(ClientStack.Jmeter, Protocol.Grpc, "/protocolbench.v1.Payloads/NoSuchMethod", "UNIMPLEMENTED", "UNIMPLEMENTED")]
    [InlineData(ClientStack.Python, Protocol.Rest, "api/no-such-route", "HTTP 404", "HTTP_404")]
    [InlineData(ClientStack.Python, Protocol.Grpc, "/protocolbench.v1.Payloads/NoSuchMethod", "UNIMPLEMENTED", "UNIMPLEMENTED")]
    [InlineData(ClientStack.Node, Protocol.Rest, "api/no-such-route", "HTTP 404", "HTTP_404")]
    [InlineData(ClientStack.Node, Protocol.Grpc, "/protocolbench.v1.Payloads/NoSuchMethod", "UNIMPLEMENTED", "UNIMPLEMENTED")]
    [InlineData(ClientStack.Node, Protocol.SignalR, "NoSuchMethod", "UNIMPLEMENTED method: ", "failed")]
    public async Task AForeignStackFailsACellTheServiceRefuses(ClientStack client, Protocol protocol, string target, string status, string code)
    {
        SkipUnlessFound(client);
        // The path, or on the hub the method's name.
        var call = (await PortableScenario.RecordAsync(Catalogue.Named("int-max"), protocol, ""))!;
        call = call.HubProtocol is null ? call with { Path = target } : call with { Method = target };
        var stack = new StackRunner(client, fixture.ClientOptions);
        var failure = await Assert.ThrowsAsync<InvalidDataException>(() => stack.MeasureAsync(new StackRunner.Cell(call, Transport.Http, false), StackRunner.Iterations.Once, Token));
        Assert.Contains(status, failure.Message, StringComparison.OrdinalIgnoreCase);

        var stream = await stack.PaceAsync(new StackRunner.Cell(call, Transport.Http, false), new StackRunner.Pacing(20, 3, 1, TimeSpan.Zero), _ => { }, Token);
        Assert.Null(stream.First);
        Assert.Equal(3, stream.Requests.Count);
        Assert.All(stream.Requests, r => Assert.Equal((OutcomeKind.Failed, code), (r.Outcome, r.Code)));
        // A 404 or UNIMPLEMENTED is a refusal: the service applied nothing.
        Assert.Equal(code != "failed", Outcome.Failure(code).Definite);
    }

    /// <summary>The call as curl sends it (HTTP/1.1 for REST and GraphQL; gRPC's frame over h2c), the answer's body (gRPC's message) as bytes.</summary>
    private async Task<byte[]> CurlAsync(PortableCall call)
    {
        var directory = Directory.CreateTempSubdirectory("pb-curl-");
        try
        {
            var (request, answer) = (Path.Combine(directory.FullName, "request"), Path.Combine(directory.FullName, "answer"));
            var body = call.Body ?? [];
            var grpc = call.Protocol == Protocol.Grpc;
            await File.WriteAllBytesAsync(request, grpc ? [0, .. BitConverter.GetBytes(System.Buffers.Binary.BinaryPrimitives.ReverseEndianness(body.Length)), .. body] : body, Token);
            var address = fixture.Addresses.BaseUri(call.Protocol, Transport.Http);
            List<string> args = ["--silent", "--show-error", "--fail", "--max-time", "30", "-X", call.Method, "-o", answer];
            args.AddRange(grpc
                ? ["--http2-prior-knowledge", "-H", "content-type: application/grpc", "-H", "te: trailers", "--data-binary", "@" + request, new Uri(address, call.Path).AbsoluteUri]
                : call.Body is null ? [new Uri(address, call.Path).AbsoluteUri] : ["-H", $"content-type: {call.ContentType}", "--data-binary", "@" + request, new Uri(address, call.Path).AbsoluteUri]);
            await Processes.RunAsync("curl", [.. args]);
            var bytes = await File.ReadAllBytesAsync(answer, Token);
            // One gRPC message: a flag byte, four bytes of length, the message.
            return grpc ? bytes[5..] : bytes;
        }
        finally
        {
            directory.Delete(recursive: true);
        }
    }
}
