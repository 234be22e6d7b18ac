using ProtocolBench.Benchmarks.Reporting;
using ProtocolBench.Lab;
using ProtocolBench.Lab.Scenarios;
using ProtocolBench.Shared.Clients;

namespace ProtocolBench.Benchmarks.Cli;

/// <summary>
/// compare RESULTS_A RESULTS_B: do two runs tell the same story? Per row, both verdicts and whether they agree (the
/// same winner, or no clear winner in both); per cell, the ratio to REST in each run and how far it moved. Exit 1 when
/// a row names opposite winners in two runs under the same conditions (under different ones a flip is a finding).
/// </summary>
public static class CompareCommand
{
    /// <summary>How far a ratio to REST may move between runs and still count as the same.</summary>
    public const double RatioTolerance = 0.10;

    public static int Run(string pathA, string pathB)
    {
        RunFile a, b;
        try
        {
            (a, b) = (RunFile.Load(pathA), RunFile.Load(pathB));
        }
        catch (Exception e) when (e is IOException or InvalidDataException)
        {
            Console.Error.WriteLine(e.Message);
            return ExitCodes.BadUsage;
        }

        var (resultsA, resultsB) = (a.Results, b.Results);
        Console.WriteLine($"A: {pathA} ({Describe(a, resultsA)})");
        Console.WriteLine($"B: {pathB} ({Describe(b, resultsB)})");
        var differences = a.Run.Conditions.DifferencesFrom(b.Run.Conditions);
        if (differences.Count > 0)
        {
            Console.WriteLine($"The runs differ in their conditions: {string.Join("; ", differences)} (A against B). " +
                              "A winner that flips below is what these conditions change, not a failure to reproduce.");
        }

        Console.WriteLine();

        var rows = resultsA.Rows().Intersect(resultsB.Rows()).ToList();
        int same = 0, opposite = 0, decided = 0, ratios = 0, ratiosClose = 0;
        var width = rows.Select(r => Row(r.Scenario.Short, r.Transport).Length).DefaultIfEmpty(10).Max();
        foreach (var (scenario, transport) in rows)
        {
            var (va, vb) = (resultsA.WinnerOf(scenario, transport), resultsB.WinnerOf(scenario, transport));
            if (va is null || vb is null || va.Says == Verdict.Untested || vb.Says == Verdict.Untested)
            {
                Console.WriteLine($"{Row(scenario.Short, transport).PadRight(width)}  no verdict in {(va?.Says == Verdict.Untested ? "A" : "B")} (one round)");
                continue;
            }

            decided++;
            var agree = va.Says == vb.Says;
            var flipped = va.Named && vb.Named && !agree;
            same += agree ? 1 : 0;
            opposite += flipped ? 1 : 0;
            var mark = agree ? "same    " : flipped ? (differences.Count > 0 ? "FLIPS   " : "OPPOSITE") : "differs ";
            Console.WriteLine($"{Row(scenario.Short, transport).PadRight(width)}  {mark}  A: {va.Describe()}  |  B: {vb.Describe()}");
            foreach (var protocol in Display.Protocols.Where(p => p != Protocol.Rest))
            {
                if (resultsA.RatioToRest(scenario, protocol, transport) is not { } ra || resultsB.RatioToRest(scenario, protocol, transport) is not { } rb)
                {
                    continue;
                }

                ratios++;
                var change = rb.Ratio / ra.Ratio - 1;
                var close = Math.Abs(change) <= RatioTolerance;
                ratiosClose += close ? 1 : 0;
                Console.WriteLine($"{"".PadRight(width)}    {Display.Of(protocol).PadRight(Display.NameWidth)} ÷ REST  A {ra}  B {rb}  change {change:+0%;-0%;0%}{(close ? "" : "  (moved more than 10 %)")}");
            }
        }

        Console.WriteLine();
        var summary = decided == 0
            ? "No row has a verdict in both runs (verdicts need two or more rounds)."
            : $"{same} of {decided} rows agree ({(double)same / decided:P0}): the same winner, or no clear winner in both; " +
              $"{opposite} {(differences.Count > 0 ? "flip their winner with the conditions" : "name opposite winners")}; ratios to REST within {RatioTolerance:P0} in {ratiosClose} of {ratios} cells " +
              $"({(ratios == 0 ? 0 : (double)ratiosClose / ratios):P0}).";
        Console.WriteLine(summary);
        return opposite > 0 && differences.Count == 0 ? ExitCodes.CheckFailed : ExitCodes.Ok;
    }

    /// <summary>
    /// Three or more runs, typically the same selection under different conditions: per row each run's verdict and, where
    /// two runs name different winners, the conditions they differ in: what decides the verdict. Exit 1 when two runs
    /// under the same conditions name opposite winners.
    /// </summary>
    public static int Run(IReadOnlyList<string> paths)
    {
        var runs = new List<(string Label, RunFile File)>();
        try
        {
            runs.AddRange(paths.Select((path, i) => (((char)('A' + i)).ToString(), RunFile.Load(path))));
        }
        catch (Exception e) when (e is IOException or InvalidDataException)
        {
            Console.Error.WriteLine(e.Message);
            return ExitCodes.BadUsage;
        }

        foreach (var ((label, run), path) in runs.Zip(paths))
        {
            Console.WriteLine($"{label}: {path} ({Describe(run, run.Results)}; {run.Run.Conditions.Summary})");
        }

        Console.WriteLine();
        var rows = Catalogue.All
            .SelectMany(scenario => Display.Transports.Select(transport => (Scenario: scenario, Transport: transport)))
            .Where(row => runs.Any(r => r.File.Results.Rows().Contains(row)))
            .ToList();
        var width = rows.Select(r => Row(r.Scenario.Short, r.Transport).Length).DefaultIfEmpty(10).Max();
        int compared = 0, steady = 0, decidedByConditions = 0, opposite = 0;
        foreach (var (scenario, transport) in rows)
        {
            var verdicts = runs
                .Select(r => (r.Label, r.File.Run.Conditions, Verdict: r.File.Results.WinnerOf(scenario, transport)))
                .Where(v => v.Verdict is { } verdict && verdict.Says != Verdict.Untested)
                .ToList();
            Console.WriteLine($"{Row(scenario.Short, transport).PadRight(width)}  " +
                              string.Join("  |  ", verdicts.Select(v => $"{v.Label}: {v.Verdict!.Describe()}")));
            // Every two runs whose verdicts differ (a winner and another, or a winner and none), with what their conditions differ in.
            var changes = (from a in verdicts
                           from b in verdicts
                           where string.CompareOrdinal(a.Label, b.Label) < 0 && a.Verdict!.Says != b.Verdict!.Says
                           select (a, b, Opposite: a.Verdict!.Named && b.Verdict!.Named, Differences: a.Conditions.DifferencesFrom(b.Conditions))).ToList();
            foreach (var (a, b, isOpposite, differences) in changes)
            {
                var mark = differences.Count > 0 ? "changes " : isOpposite ? "OPPOSITE" : "differs ";
                Console.WriteLine($"{"".PadRight(width)}  {mark} {a.Label} {a.Verdict!.Says} → {b.Label} {b.Verdict!.Says}: " +
                                  (differences.Count == 0 ? "under the same conditions" : string.Join("; ", differences)));
            }

            compared += verdicts.Count > 1 ? 1 : 0;
            opposite += changes.Any(c => c.Opposite && c.Differences.Count == 0) ? 1 : 0;
            decidedByConditions += changes.Any(c => c.Differences.Count > 0) ? 1 : 0;
            steady += changes.Count == 0 && verdicts.Count > 1 ? 1 : 0;
        }

        Console.WriteLine();
        Console.WriteLine($"{rows.Count} rows, {compared} with a verdict in two or more runs: {steady} have the same verdict in every run; " +
                          $"{decidedByConditions} change it with the conditions (the lines \"changes\" name the conditions that differ); " +
                          $"{opposite} name opposite winners under the same conditions.");
        return opposite > 0 ? ExitCodes.CheckFailed : ExitCodes.Ok;
    }

    private static string Row(string scenario, Transport transport) => $"{scenario}, {Display.Of(transport)}";

    private static string Describe(RunFile run, ResultSet results) =>
        $"{run.Run.Started:yyyy-MM-dd HH:mm}, {results.Rounds} round(s), {results.Cells.Count(c => c.Success)} cells, seed {run.Run.Seed}";
}
