using System.Diagnostics;
using BenchmarkDotNet.EventProcessors;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;
using BenchmarkDotNet.Validators;
using ProtocolBench.Lab;
using ProtocolBench.Benchmarks.Suite;

namespace ProtocolBench.Benchmarks.Config;

/// <summary>
/// One line per cell with its median and the time left in the whole run (every round), instead of BenchmarkDotNet's
/// per-iteration output. One instance for the run; <see cref="StartRound"/> before each round.
/// </summary>
public sealed class ProgressReporter(WireTally wire, int rounds) : EventProcessor
{
    private readonly Stopwatch _run = new();
    private readonly Stopwatch _cell = new();
    private readonly Stopwatch _group = new();
    private int _round;
    private int _perRound;
    private int _done;

    public void StartRound(int round)
    {
        _round = round;
        _run.Start();
    }

    public override void OnValidationError(ValidationError validationError) =>
        Console.Error.WriteLine($"  validation {(validationError.IsCritical ? "error" : "warning")}: {validationError.Message}");

    public override void OnStartBuildStage(IReadOnlyList<BuildPartition> partitions)
    {
        _perRound = partitions.Sum(p => p.Benchmarks.Length);
        Console.WriteLine($"Round {_round} of {rounds}: measuring {_perRound} cells.");
    }

    public override void OnStartRunBenchmarksInType(Type type, IReadOnlyList<BenchmarkCase> benchmarks)
    {
        var scenarios = benchmarks.Select(Cell.ScenarioOf).Distinct();
        Console.WriteLine();
        Console.WriteLine($"== Round {_round}/{rounds} · {type.Name}: {benchmarks.Count} cells ({string.Join(", ", scenarios)})");
        _group.Restart();
    }

    public override void OnStartRunBenchmark(BenchmarkCase benchmarkCase) => _cell.Restart();

    public override void OnEndRunBenchmark(BenchmarkCase benchmarkCase, BenchmarkReport report)
    {
        _done++;
        var where = Cell.HasProtocol(benchmarkCase)
            ? $"{Display.Of(Cell.ProtocolOf(benchmarkCase)).PadRight(Display.NameWidth)} {Display.Of(Cell.TransportOf(benchmarkCase)),-5}"
            : Cell.Where(benchmarkCase);
        var name = $"{Cell.ScenarioOf(benchmarkCase).Name,-15} {where.PadRight(Display.NameWidth + 6)}";
        string outcome;
        if (report.Success && report.ResultStatistics is { } stats)
        {
            var bytes = wire.Find(benchmarkCase) is { } w ? $"{w.TotalPerOp,12:N0} B/op" : "";
            outcome = $"median {Format.Time(stats.Median),10}  {bytes}";
        }
        else
        {
            outcome = "FAILED (the error is above and in the log)";
        }

        var total = _perRound * rounds;
        var left = _done < total ? $"  ~{Format.Duration(_run.Elapsed / _done * (total - _done))} left" : "";
        Console.WriteLine($"  [{_done,4}/{total}] {name} {outcome}  ({_cell.Elapsed.TotalSeconds:F1} s){left}");
    }

    public override void OnEndRunBenchmarksInType(Type type, Summary summary) =>
        Console.WriteLine($"   {type.Name} done in {Format.Duration(_group.Elapsed)}");
}
