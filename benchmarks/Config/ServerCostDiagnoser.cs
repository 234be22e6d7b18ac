using System.Collections.Concurrent;
using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Diagnosers;
using BenchmarkDotNet.Engines;

namespace ProtocolBench.Benchmarks.Config;

/// <summary>
/// What each operation costs the service, and the client: the service's meter (<see cref="ServiceMeter"/>) is read
/// when BenchmarkDotNet begins a cell's measured iterations and when it ends them, so the warm-up and the pilot are
/// left out. The figures are BenchmarkDotNet metrics, hence columns of its reports, and reach the summary through them
/// (<see cref="CostOf"/>). A reading taken while the service was not idle is dropped and counted (<see cref="Dropped"/>).
/// </summary>
public sealed class ServerCostDiagnoser(Func<Protocol, ServiceMeter?> meterOf) : MetricDiagnoser
{
    private static readonly MetricKind ServerCpu = new(
        "ServerCpu", "Server CPU", "The service's CPU time per operation (user + system) by its runtime's own account (dotnet.process.cpu.time), measured iterations only", UnitType.Time, "N1", 1);

    private static readonly MetricKind ServerAllocated = new(
        "ServerAllocated", "Server alloc", "Bytes the service allocated per operation (dotnet.gc.heap.total_allocated), measured iterations only", UnitType.Size, "N1", 2);

    private static readonly MetricKind KernelCpu = new(
        "KernelCpu", "Server CPU (kernel)", "The same CPU time by the kernel's account (/proc/PID/stat, 10 ms steps at each end): the check", UnitType.Time, "N1", 3);

    private static readonly MetricKind ClientCpu = new(
        "ClientCpu", "Client CPU", "This process's CPU time per operation over the same iterations (the client's work and the harness's)", UnitType.Time, "N1", 4);

    private readonly ConcurrentDictionary<string, Window> _windows = new();
    private int _dropped;

    /// <summary>Cells whose readings were dropped: the service's collection came after the next requests began, or not at all.</summary>
    public int Dropped => _dropped;

    public override IEnumerable<string> Ids => ["ServerCost"];

    /// <summary>The cost per operation BenchmarkDotNet's report of a cell holds, or null when it was not measured.</summary>
    public static CostPerOp? CostOf(BenchmarkReport report) =>
        report.Metrics.TryGetValue(ServerCpu.Id, out var cpu) && report.Metrics.TryGetValue(ServerAllocated.Id, out var allocated)
            ? new CostPerOp(
                ActualOperations(report.AllMeasurements),
                cpu.Value / 1e3,
                allocated.Value,
                report.Metrics.TryGetValue(KernelCpu.Id, out var kernel) ? kernel.Value / 1e3 : double.NaN,
                report.Metrics.TryGetValue(ClientCpu.Id, out var client) ? client.Value / 1e3 : double.NaN,
                Precise: true)
            : null;

    public override RunMode GetRunMode(BenchmarkCase benchmarkCase) => Service(benchmarkCase) is null ? RunMode.None : RunMode.NoOverhead;

    public override void Handle(HostSignal signal, DiagnoserActionParameters parameters)
    {
        var id = Cell.Id(parameters.BenchmarkCase);
        switch (signal)
        {
            case HostSignal.BeforeActualRun when Service(parameters.BenchmarkCase) is { } protocol && meterOf(protocol) is { } meter:
                var start = meter.Pause();
                _windows[id] = new Window(meter, start, Environment.CpuUsage.TotalTime);
                break;
            case HostSignal.AfterActualRun when _windows.TryGetValue(id, out var window):
                var client = Environment.CpuUsage.TotalTime - window.ClientStart;
                _windows[id] = window with { End = window.Meter.Pause(), ClientSeconds = client.TotalSeconds };
                break;
        }
    }

    public override IEnumerable<Metric> ProcessResults(DiagnoserResults results)
    {
        if (!_windows.TryRemove(Cell.Id(results.BenchmarkCase), out var window) || window.End is not { } end)
        {
            return [];
        }

        if (window.Meter.CostBetween(window.Start, end, ActualOperations(results.Measurements), window.ClientSeconds) is not { } cost)
        {
            Interlocked.Increment(ref _dropped);
            return [];
        }

        return
        [
            new Metric(ServerCpu, cost.ServerCpuMicros * 1e3),
            new Metric(ServerAllocated, cost.ServerAllocatedBytes),
            new Metric(KernelCpu, cost.KernelCpuMicros * 1e3),
            new Metric(ClientCpu, cost.ClientCpuMicros * 1e3),
        ];
    }

    /// <summary>The service a case calls: its protocol's, or the REST service's for the loopback transfer (its sender lives there); none for the domain floor.</summary>
    private static Protocol? Service(BenchmarkCase benchmarkCase) =>
        Cell.HasProtocol(benchmarkCase) ? Cell.ProtocolOf(benchmarkCase)
        : Cell.IsLoopbackTransfer(benchmarkCase) ? Protocol.Rest
        : null;

    private static long ActualOperations(IEnumerable<Measurement> measurements) =>
        measurements.Where(m => m.IterationMode == IterationMode.Workload && m.IterationStage == IterationStage.Actual).Sum(m => m.Operations);

    private sealed record Window(ServiceMeter Meter, MeterMark Start, TimeSpan ClientStart, MeterMark? End = null, double ClientSeconds = double.NaN);
}
