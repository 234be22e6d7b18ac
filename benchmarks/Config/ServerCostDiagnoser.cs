using System.Collections.Concurrent;
using BenchmarkDotNet.Diagnosers;
using BenchmarkDotNet.Engines;

namespace ProtocolBench.Benchmarks.Config;

/// <summary>
/// What each operation costs the service, and the client: the service's meter (<see cref="ServiceMeter"/>) is marked
/// when BenchmarkDotNet begins a cell's measured iterations and when it ends them, so the warm-up and the pilot are
/// left out. The marks are read once their collections have arrived: as later cells end, and the rest after the round
/// (<see cref="TakeRound"/>). Reading each as its cell ended waited about 0.13 s a cell for the collection that follows
/// the last mark. A reading taken while the service was not idle is dropped and counted (<see cref="Dropped"/>).
/// </summary>
public sealed class ServerCostDiagnoser(Func<Protocol, ServiceMeter?> meterOf) : MetricDiagnoser
{
    private readonly ConcurrentDictionary<string, Window> _windows = new();
    private readonly ConcurrentQueue<(string Id, Window Window)> _ended = new();
    private readonly ConcurrentDictionary<string, CostPerOp> _costs = new();
    private int _dropped;

    /// <summary>Cells whose readings were dropped: the service's collection came after the next requests began, or not at all.</summary>
    public int Dropped => _dropped;

    public override IEnumerable<string> Ids => ["ServerCost"];

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
        if (_windows.TryRemove(Cell.Id(results.BenchmarkCase), out var window) && window.End is not null)
        {
            _ended.Enqueue((Cell.Id(results.BenchmarkCase), window with { Operations = ActualOperations(results.Measurements) }));
        }

        // The meter keeps two minutes of collections: the cells that ended before are read now, while theirs are kept.
        ReadEnded(wait: false);
        return [];
    }

    /// <summary>The cost per operation of every cell measured since the last call, by its case's id (<see cref="Cell.Id"/>); a cell whose reading was dropped has none.</summary>
    public IReadOnlyDictionary<string, CostPerOp> TakeRound()
    {
        ReadEnded(wait: true);
        var costs = new Dictionary<string, CostPerOp>(_costs);
        _costs.Clear();
        return costs;
    }

    /// <summary>Reads the ended cells in order, up to the first whose last collection has not arrived (all of them when told to wait).</summary>
    private void ReadEnded(bool wait)
    {
        while (_ended.TryPeek(out var ended) && (wait || ended.Window.Meter.Arrived(ended.Window.End!)) && _ended.TryDequeue(out ended))
        {
            var (id, window) = ended;
            if (window.Meter.CostBetween(window.Start, window.End!, window.Operations, window.ClientSeconds) is { } cost)
            {
                _costs[id] = cost;
            }
            else
            {
                Interlocked.Increment(ref _dropped);
            }
        }
    }

    /// <summary>The service a case calls: its protocol's, or the REST service's for the loopback transfer (its sender lives there); none for the domain floor.</summary>
    private static Protocol? Service(BenchmarkCase benchmarkCase) =>
        Cell.HasProtocol(benchmarkCase) ? Cell.ProtocolOf(benchmarkCase)
        : Cell.IsLoopbackTransfer(benchmarkCase) ? Protocol.Rest
        : null;

    private static long ActualOperations(IEnumerable<Measurement> measurements) =>
        measurements.Where(m => m.IterationMode == IterationMode.Workload && m.IterationStage == IterationStage.Actual).Sum(m => m.Operations);

    private sealed record Window(ServiceMeter Meter, MeterMark Start, TimeSpan ClientStart, MeterMark? End = null, double ClientSeconds = double.NaN, long Operations = 0);
}
