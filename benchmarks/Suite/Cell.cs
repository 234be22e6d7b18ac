namespace ProtocolBench.Benchmarks.Suite;

/// <summary>
/// A BenchmarkDotNet case's parameters: the scenario, the protocol and the transport of one cell; the scenario alone for
/// the two cases without a protocol, the domain floor (in process) and the loopback transfer (plain TCP).
/// </summary>
public static class Cell
{
    public static Scenario ScenarioOf(BenchmarkCase benchmarkCase) => (Scenario)benchmarkCase.Parameters[nameof(ProtocolBenchmark.Scenario)];

    public static Protocol ProtocolOf(BenchmarkCase benchmarkCase) => (Protocol)benchmarkCase.Parameters[nameof(ProtocolBenchmark.Protocol)];

    public static Transport TransportOf(BenchmarkCase benchmarkCase) => (Transport)benchmarkCase.Parameters[nameof(ProtocolBenchmark.Transport)];

    /// <summary>A case over a protocol and a transport: neither a domain floor nor the loopback transfer.</summary>
    public static bool HasProtocol(BenchmarkCase benchmarkCase) => typeof(ProtocolBenchmark).IsAssignableFrom(benchmarkCase.Descriptor.Type);

    /// <summary>A case of the domain floor: no protocol, no transport.</summary>
    public static bool IsDomainFloor(BenchmarkCase benchmarkCase) => benchmarkCase.Descriptor.Type == typeof(DomainFloor);

    /// <summary>A case of the loopback transfer: plain TCP, no protocol.</summary>
    public static bool IsLoopbackTransfer(BenchmarkCase benchmarkCase) => benchmarkCase.Descriptor.Type == typeof(LoopbackTransfer);

    /// <summary>Where a case is measured, as the progress lines and the warm-up name it.</summary>
    public static string Where(BenchmarkCase benchmarkCase) =>
        HasProtocol(benchmarkCase) ? Display.Of(ProtocolOf(benchmarkCase), TransportOf(benchmarkCase))
        : IsLoopbackTransfer(benchmarkCase) ? "plain TCP"
        : "in process";

    /// <summary>The same cell in every round, whatever its job: class and parameters.</summary>
    public static string Id(BenchmarkCase benchmarkCase) => $"{benchmarkCase.Descriptor.Type.Name} [{benchmarkCase.Parameters.DisplayInfo}]";
}
