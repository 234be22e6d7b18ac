using System.Net;
using ProtocolBench.Shared.Domain;

namespace ProtocolBench.Benchmarks.Suite;

/// <summary>
/// The transport floor: GET /baseline, fixed bytes with no work behind them, on each service's own ports with the HTTP
/// version its protocol uses (HTTP/1.1 for REST and GraphQL, HTTP/2 for gRPC) and the same handler as the clients; on a
/// warm connection (<see cref="Catalogue.Floor"/>) and on a new one per call (<see cref="Catalogue.FloorNewConnection"/>)
/// whatever --connections says, so that every run shows what opening a connection costs.
/// </summary>
public class Floor : ProtocolBenchmark
{
    private static readonly byte[] Expected = Floors.BaselineBody;
    private readonly WireCounter _wire = new();
    private HttpClient _http = null!;

    protected override ScenarioGroup Group => ScenarioGroup.Floor;

    protected override WireCounter Wire => _wire;

    protected override async Task<object> CallAsync()
    {
        using var response = await _http.GetAsync("baseline", HttpCompletionOption.ResponseHeadersRead);
        if (response.StatusCode != HttpStatusCode.OK)
        {
            throw Checks.Wrong("GET /baseline", $"HTTP {(int)response.StatusCode}");
        }

        return Checks.Bytes(await response.Content.ReadAsByteArrayAsync(), Expected, "GET /baseline");
    }

    protected override Task ConnectAsync()
    {
        var options = Run.ClientOptions with
        {
            Connections = Scenario == Catalogue.FloorNewConnection ? ConnectionPolicy.New : ConnectionPolicy.Reuse,
            Compression = Compression.None,
        };
        var http2 = Protocol == Protocol.Grpc || (Transport == Transport.Https && options.HttpsUsesHttp2ForRestAndGraphQL);
        _http = new HttpClient(ClientHandlers.Create(options, _wire), disposeHandler: true)
        {
            BaseAddress = options.Addresses.BaseUri(Protocol, Transport),
            Timeout = options.CallTimeout,
            DefaultRequestVersion = http2 ? HttpVersion.Version20 : HttpVersion.Version11,
            DefaultVersionPolicy = HttpVersionPolicy.RequestVersionExact,
        };
        return Task.CompletedTask;
    }

    protected override ValueTask DisconnectAsync()
    {
        _http?.Dispose();
        return ValueTask.CompletedTask;
    }

    protected override async Task VerifyAsync()
    {
        var body = (byte[])await CallAsync();
        if (!body.AsSpan().SequenceEqual(Expected))
        {
            throw Checks.Wrong("GET /baseline", "body differs from the fixed bytes");
        }
    }
}
