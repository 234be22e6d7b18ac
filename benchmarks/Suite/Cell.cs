using BenchmarkDotNet.Running;
using ProtocolBench.Lab.Scenarios;
using ProtocolBench.Shared.Clients;

namespace ProtocolBench.Benchmarks.Suite;

/// <summary>A BenchmarkDotNet case's parameters: the scenario, the protocol and the transport of one cell (the scenario alone in process).</summary>
public static class Cell
{
    public static Scenario ScenarioOf(BenchmarkCase benchmarkCase) => (Scenario)benchmarkCase.Parameters[nameof(ProtocolBenchmark.Scenario)];

    public static Protocol ProtocolOf(BenchmarkCase benchmarkCase) => (Protocol)benchmarkCase.Parameters[nameof(ProtocolBenchmark.Protocol)];

    public static Transport TransportOf(BenchmarkCase benchmarkCase) => (Transport)benchmarkCase.Parameters[nameof(ProtocolBenchmark.Transport)];

    /// <summary>A case of the domain floor: no protocol, no transport.</summary>
    public static bool IsDomainFloor(BenchmarkCase benchmarkCase) => benchmarkCase.Descriptor.Type == typeof(DomainFloor);

    /// <summary>The same cell in every round, whatever its job: class and parameters.</summary>
    public static string Id(BenchmarkCase benchmarkCase) => $"{benchmarkCase.Descriptor.Type.Name} [{benchmarkCase.Parameters.DisplayInfo}]";
}
