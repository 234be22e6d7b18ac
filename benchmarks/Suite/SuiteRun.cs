using System.Collections.Concurrent;
using BenchmarkDotNet.Running;
using ProtocolBench.Lab.Scenarios;
using ProtocolBench.Shared.Clients;

namespace ProtocolBench.Benchmarks.Suite;

/// <summary>
/// What the command hands the benchmark classes for one run, and what they hand back (bytes on the wire). BenchmarkDotNet
/// creates the class instances itself, so this one object is reached through <see cref="Current"/>: the suite runs
/// in-process (see BenchConfig), in this very process.
/// </summary>
public sealed class SuiteRun(ClientOptions clientOptions, Func<Protocol, string?> problem)
{
    private readonly ConcurrentDictionary<string, bool> _verified = new();

    public static SuiteRun Current { get; set; } = new(new ClientOptions(), _ => "the suite runs only from the benchmark command");

    public ClientOptions ClientOptions { get; } = clientOptions;

    /// <summary>Why the service of a protocol cannot be measured (it died, or the run was interrupted), or null.</summary>
    public Func<Protocol, string?> Problem { get; } = problem;

    public WireTally Wire { get; } = new();

    /// <summary>The full verification of a scenario runs once per protocol and transport, not once per job.</summary>
    public bool FirstVerification(Scenario scenario, Protocol protocol, Transport transport) =>
        _verified.TryAdd($"{scenario.Name}.{protocol}.{transport}", true);
}

/// <summary>Bytes on the wire per operation, measured in each cell's GlobalSetup and read by the report columns.</summary>
public sealed class WireTally
{
    private readonly ConcurrentDictionary<(Scenario, Protocol, Transport), WireSample> _samples = new();

    public void Record(Scenario scenario, Protocol protocol, Transport transport, WireSample sample) => _samples[(scenario, protocol, transport)] = sample;

    public WireSample? Find(Scenario scenario, Protocol protocol, Transport transport) =>
        _samples.TryGetValue((scenario, protocol, transport), out var sample) ? sample : null;

    public WireSample? Find(BenchmarkCase benchmarkCase) => Find(Cell.ScenarioOf(benchmarkCase), Cell.ProtocolOf(benchmarkCase), Cell.TransportOf(benchmarkCase));
}

/// <param name="SentPerOp">Request bytes per operation at the socket (TLS records on HTTPS).</param>
/// <param name="ReceivedPerOp">Response bytes per operation at the socket.</param>
/// <param name="Operations">How many serial operations the averages come from.</param>
/// <param name="ConnectionSetup">Bytes of opening the connection (TCP payload: TLS handshake, HTTP/2 preface and settings), when seen.</param>
public sealed record WireSample(double SentPerOp, double ReceivedPerOp, int Operations, long? ConnectionSetup)
{
    public double TotalPerOp => SentPerOp + ReceivedPerOp;
}

/// <summary>A BenchmarkDotNet case's parameters: the scenario, the protocol and the transport of one cell.</summary>
public static class Cell
{
    public static Scenario ScenarioOf(BenchmarkCase benchmarkCase) => (Scenario)benchmarkCase.Parameters[nameof(ProtocolBenchmark.Scenario)];

    public static Protocol ProtocolOf(BenchmarkCase benchmarkCase) => (Protocol)benchmarkCase.Parameters[nameof(ProtocolBenchmark.Protocol)];

    public static Transport TransportOf(BenchmarkCase benchmarkCase) => (Transport)benchmarkCase.Parameters[nameof(ProtocolBenchmark.Transport)];
}
