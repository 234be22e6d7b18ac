using System.Collections.Concurrent;

namespace ProtocolBench.Benchmarks.Suite;

/// <summary>
/// Bytes on the wire per operation, measured in each cell's set-up (<see cref="ProtocolBenchmark"/>) and taken by the
/// diagnoser that makes them BenchmarkDotNet metrics (Config/WireBytesDiagnoser): nothing else reads them here.
/// </summary>
public sealed class WireTally
{
    private readonly ConcurrentDictionary<(Scenario, Protocol, Transport), WireSample> _samples = new();

    public void Record(Scenario scenario, Protocol protocol, Transport transport, WireSample sample) => _samples[(scenario, protocol, transport)] = sample;

    /// <summary>The sample the case's set-up measured in this round, once.</summary>
    public WireSample? Take(BenchmarkCase benchmarkCase) =>
        Cell.HasProtocol(benchmarkCase) && _samples.TryRemove((Cell.ScenarioOf(benchmarkCase), Cell.ProtocolOf(benchmarkCase), Cell.TransportOf(benchmarkCase)), out var sample)
            ? sample
            : null;
}
