using ProtocolBench.Benchmarks.Reporting;
using ProtocolBench.Lab;
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
            var mark = agree ? "same    " : flipped ? "OPPOSITE" : "differs ";
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
                Console.WriteLine($"{"".PadRight(width)}    {Display.Of(protocol),-7} ÷ REST  A {ra}  B {rb}  change {change:+0%;-0%;0%}{(close ? "" : "  (moved more than 10 %)")}");
            }
        }

        Console.WriteLine();
        var summary = decided == 0
            ? "No row has a verdict in both runs (verdicts need two or more rounds)."
            : $"{same} of {decided} rows agree ({(double)same / decided:P0}): the same winner, or no clear winner in both; " +
              $"{opposite} name opposite winners; ratios to REST within {RatioTolerance:P0} in {ratiosClose} of {ratios} cells " +
              $"({(ratios == 0 ? 0 : (double)ratiosClose / ratios):P0}).";
        Console.WriteLine(summary);
        return opposite > 0 && differences.Count == 0 ? ExitCodes.CheckFailed : ExitCodes.Ok;
    }

    private static string Row(string scenario, Transport transport) => $"{scenario}, {Display.Of(transport)}";

    private static string Describe(RunFile run, ResultSet results) =>
        $"{run.Run.Started:yyyy-MM-dd HH:mm}, {results.Rounds} round(s), {results.Cells.Count(c => c.Success)} cells, seed {run.Run.Seed}";
}
