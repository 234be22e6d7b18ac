using System.Collections.Concurrent;
using BenchmarkDotNet.Running;
using ProtocolBench.Lab.Scenarios;
using ProtocolBench.Shared.Clients;

namespace ProtocolBench.Benchmarks.Suite;

/// <summary>Bytes on the wire per operation, measured in each cell's GlobalSetup and read by the report columns.</summary>
public sealed class WireTally
{
    private readonly ConcurrentDictionary<(Scenario, Protocol, Transport), WireSample> _samples = new();

    public void Record(Scenario scenario, Protocol protocol, Transport transport, WireSample sample) => _samples[(scenario, protocol, transport)] = sample;

    public WireSample? Find(Scenario scenario, Protocol protocol, Transport transport) =>
        _samples.TryGetValue((scenario, protocol, transport), out var sample) ? sample : null;

    public WireSample? Find(BenchmarkCase benchmarkCase) =>
        !Cell.HasProtocol(benchmarkCase) ? null : Find(Cell.ScenarioOf(benchmarkCase), Cell.ProtocolOf(benchmarkCase), Cell.TransportOf(benchmarkCase));
}
