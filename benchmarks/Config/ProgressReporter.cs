using System.Diagnostics;
using BenchmarkDotNet.EventProcessors;
using BenchmarkDotNet.Validators;

namespace ProtocolBench.Benchmarks.Config;

/// <summary>
/// One line per cell with its median and the time left in the whole run, instead of BenchmarkDotNet's per-iteration
/// output. In a sequential design the time left is a range: the rounds every row still needs, up to every open row
/// measured to the maximum. One instance for the run; <see cref="StartRound"/> before each round. A cell that ends
/// failed after Ctrl+C or SIGTERM was not reached: it is listed in <see cref="Unreached"/>, not counted as failed.
/// </summary>
public sealed class ProgressReporter(RoundDesign design, Func<bool> interrupted) : EventProcessor
{
    private readonly Stopwatch _run = new();
    private readonly Stopwatch _cell = new();
    private readonly Stopwatch _group = new();
    private readonly HashSet<BenchmarkCase> _unreached = [];
    private int _round;
    private int _perRound;
    private int _doneInRound;
    private int _done;

    /// <summary>The cells that ended without a result because the run was being interrupted.</summary>
    public IReadOnlySet<BenchmarkCase> Unreached => _unreached;

    public bool Interrupted => interrupted();

    /// <param name="open">What the round measures, e.g. "12 of 58 rows still open", or null when it measures every row.</param>
    public void StartRound(int round, string? open)
    {
        _round = round;
        _open = open;
        _doneInRound = 0;
        _run.Start();
    }

    private string? _open;

    private string Of => design.Sequential ? $"{design.Minimum}–{design.Maximum}" : $"{design.Maximum}";

    public override void OnValidationError(ValidationError validationError) =>
        Console.Error.WriteLine($"  validation {(validationError.IsCritical ? "error" : "warning")}: {validationError.Message}");

    public override void OnStartBuildStage(IReadOnlyList<BuildPartition> partitions)
    {
        _perRound = partitions.Sum(p => p.Benchmarks.Length);
        Console.WriteLine($"Round {_round} of {Of}: measuring {_perRound} cells{(_open is null ? "" : $" ({_open})")}.");
    }

    public override void OnStartRunBenchmarksInType(Type type, IReadOnlyList<BenchmarkCase> benchmarks)
    {
        var scenarios = benchmarks.Select(Cell.ScenarioOf).Distinct();
        Console.WriteLine();
        Console.WriteLine($"== Round {_round}/{Of} · {type.Name}: {benchmarks.Count} cells ({string.Join(", ", scenarios)})");
        _group.Restart();
    }

    public override void OnStartRunBenchmark(BenchmarkCase benchmarkCase) => _cell.Restart();

    public override void OnEndRunBenchmark(BenchmarkCase benchmarkCase, BenchmarkReport report)
    {
        _done++;
        _doneInRound++;
        var where = Cell.HasProtocol(benchmarkCase)
            ? $"{Display.Of(Cell.ProtocolOf(benchmarkCase)).PadRight(Display.NameWidth)} {Display.Of(Cell.TransportOf(benchmarkCase)),-5}"
            : Cell.Where(benchmarkCase);
        var name = $"{Cell.ScenarioOf(benchmarkCase).Name,-15} {where.PadRight(Display.NameWidth + 6)}";
        string outcome;
        if (report.Success && report.ResultStatistics is { } stats)
        {
            var bytes = WireBytesDiagnoser.WireOf(report) is { } w ? $"{w.TotalPerOp,12:N0} B/op" : "";
            outcome = $"median {Format.Time(stats.Median),10}  {bytes}";
        }
        else if (interrupted())
        {
            // One line for the cells the interruption keeps from running, not one each.
            if (_unreached.Add(benchmarkCase) && _unreached.Count == 1)
            {
                Console.WriteLine($"  [{_doneInRound,4}/{_perRound}] {name} not measured (interrupted), nor the {_perRound - _doneInRound} cells left in round {_round}");
            }

            return;
        }
        else
        {
            outcome = "FAILED (the error is above and in the log)";
        }

        Console.WriteLine($"  [{_doneInRound,4}/{_perRound}] {name} {outcome}  ({_cell.Elapsed.TotalSeconds:F1} s){Left()}");
    }

    /// <summary>The time left at this run's pace: the cells every row still needs, and in a sequential design up to the maximum.</summary>
    private string Left()
    {
        var perCell = _run.Elapsed / _done;
        var thisRound = _perRound - _doneInRound;
        var least = thisRound + _perRound * Math.Max(0, design.Minimum - _round);
        var most = thisRound + _perRound * (design.Maximum - _round);
        return most == 0 ? ""
            : least == most ? $"  ~{Format.Duration(perCell * least)} left"
            : $"  ~{Format.Duration(perCell * least)}–{Format.Duration(perCell * most)} left";
    }

    public override void OnEndRunBenchmarksInType(Type type, Summary summary) =>
        Console.WriteLine($"   {type.Name} done in {Format.Duration(_group.Elapsed)}");
}
