namespace ProtocolBench.Benchmarks.Cli;

/// <summary>
/// compare RESULTS_A RESULTS_B: do two runs tell the same story? Per row, both rankings; per pair of protocols, its
/// state in each run (faster, level, undecided) and whether it is the same; per cell, the ratio to REST in each run and
/// how far it moved; whether the runs' intervals are as wide as their differences (<see cref="Calibration"/>). Exit 1 when a pair is ordered oppositely in two runs under the same conditions (under different
/// ones a flip is a finding).
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

        if (Idle(a.Run) is { } idleA && Idle(b.Run) is { } idleB && idleA != idleB)
        {
            // Halting cores move the cells between rounds more than polling ones do: the intervals differ, not the times (docs/methodology.md).
            Console.WriteLine($"The runs' idle cores differ: {idleA} against {idleB} (A against B); the halting run's intervals are wider.");
        }

        Console.WriteLine();

        var rows = resultsA.Rows().Intersect(resultsB.Rows()).ToList();
        int rowsCompared = 0, rowsSame = 0, pairs = 0, pairsSame = 0, opposite = 0, fasterAndLevel = 0, ratios = 0, ratiosClose = 0;
        var calibration = new List<(RatioInterval A, RatioInterval B)>();
        var width = rows.Select(r => Row(r.Scenario.Short, r.Transport).Length).DefaultIfEmpty(10).Max();
        foreach (var (scenario, transport) in rows)
        {
            var (ra, rb) = (resultsA.RankingOf(scenario, transport), resultsB.RankingOf(scenario, transport));
            if (ra is not { Ranking.Tested: true } || rb is not { Ranking.Tested: true })
            {
                Console.WriteLine($"{Row(scenario.Short, transport).PadRight(width)}  no ranking in {(ra is { Ranking.Tested: true } ? "B" : "A")} (one round)");
                continue;
            }

            var states = PairsOf(ra.Ranking, rb.Ranking).ToList();
            var rowOpposite = states.Count(s => s.A.Opposes(s.B));
            var rowSame = states.Count(s => SameState(s.A, s.B));
            rowsCompared++;
            rowsSame += rowSame == states.Count ? 1 : 0;
            (pairs, pairsSame, opposite) = (pairs + states.Count, pairsSame + rowSame, opposite + rowOpposite);
            fasterAndLevel += states.Count(s => (s.A.State, s.B.State) is (PairState.Faster, PairState.Level) or (PairState.Level, PairState.Faster));
            var mark = rowSame == states.Count ? "same    " : rowOpposite > 0 ? (differences.Count > 0 ? "FLIPS   " : "OPPOSITE") : "differs ";
            Console.WriteLine($"{Row(scenario.Short, transport).PadRight(width)}  {mark}  A: {ra}  |  B: {rb}");
            foreach (var (pa, pb) in states)
            {
                var state = SameState(pa, pb) ? "same" : pa.Opposes(pb) ? (differences.Count > 0 ? "FLIPS" : "OPPOSITE") : "differs";
                Console.WriteLine($"{"".PadRight(width)}    {state,-8}  A: {pa.Pair()}  |  B: {pb.Pair()}");
            }

            foreach (var protocol in Display.Protocols.Where(p => p != Protocol.Rest))
            {
                if (resultsA.RatioToRest(scenario, protocol, transport) is not { } ra2 || resultsB.RatioToRest(scenario, protocol, transport) is not { } rb2)
                {
                    continue;
                }

                ratios++;
                calibration.Add((ra2, rb2));
                var change = rb2.Ratio / ra2.Ratio - 1;
                var close = Math.Abs(change) <= RatioTolerance;
                ratiosClose += close ? 1 : 0;
                Console.WriteLine($"{"".PadRight(width)}    {Display.Of(protocol).PadRight(Display.NameWidth)} ÷ REST  A {ra2}  B {rb2}  change {change:+0%;-0%;0%}{(close ? "" : "  (moved more than 10 %)")}");
            }
        }

        Console.WriteLine();
        if (rowsCompared == 0)
        {
            Console.WriteLine("No row has a ranking in both runs (pairs need two or more rounds).");
        }
        else
        {
            Console.WriteLine($"pairs: {pairsSame} of {pairs} in the same state, {opposite} in opposite order, {fasterAndLevel} faster in one run and level in the other" +
                              (differences.Count > 0 ? " (the conditions differ: a flip is what they change)" : "") +
                              $"; decided: {Decided(resultsA)} in A, {Decided(resultsB)} in B.");
            // Each cell's ratio to REST in both runs: their difference in standard errors should spread as a standard normal does.
            Console.WriteLine(Calibration.Of(calibration)?.ToString() ?? "calibration: fewer than two ratios with an interval in both runs");
            Console.WriteLine($"{rowsSame} of {rowsCompared} rows agree ({(double)rowsSame / rowsCompared:P0}): every pair in the same state; " +
                              $"ratios to REST within {RatioTolerance:P0} in {ratiosClose} of {ratios} cells ({(ratios == 0 ? 0 : (double)ratiosClose / ratios):P0}).");
        }

        return opposite > 0 && differences.Count == 0 ? ExitCodes.CheckFailed : ExitCodes.Ok;
    }

    /// <summary>
    /// The same pair as two runs judged it: faster (the same side), level, undecided or untested in both. A pair that is
    /// faster in one and undecided in the other is not the same, nor opposite.
    /// </summary>
    private static bool SameState(Verdict a, Verdict b) => a.State == b.State && (a.State != PairState.Faster || a.Says == b.Says);

    /// <summary>Each pair of the first ranking with the same pair in the second (pairs of a protocol measured in one run only are left out).</summary>
    private static IEnumerable<(Verdict A, Verdict B)> PairsOf(Ranking a, Ranking b) =>
        from pair in a.Pairs
        let other = b.Pairs.FirstOrDefault(p => (p.Faster == pair.Faster && p.Slower == pair.Slower) || (p.Faster == pair.Slower && p.Slower == pair.Faster))
        where other is not null
        select (pair, other);

    private static string Decided(ResultSet results)
    {
        var pairs = results.Rankings().SelectMany(r => r.Ranking.Pairs).ToList();
        return $"{pairs.Count(p => p.State is PairState.Faster or PairState.Level)} of {pairs.Count} pairs ({pairs.Count(p => p.Claim == Claim.NothingKnown)} nothing known)";
    }

    /// <summary>
    /// Three or more runs, typically the same selection under different conditions: per row each run's ranking and, for
    /// each pair two runs judge differently, the conditions they differ in: what decides it. Exit 1 when two runs under
    /// the same conditions order a pair oppositely.
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
            var rankings = runs
                .Select(r => (r.Label, r.File.Run.Conditions, Ranking: r.File.Results.RankingOf(scenario, transport)))
                .Where(v => v.Ranking is { Ranking.Tested: true })
                .ToList();
            Console.WriteLine($"{Row(scenario.Short, transport).PadRight(width)}  " +
                              string.Join("  |  ", rankings.Select(v => $"{v.Label}: {v.Ranking}")));
            // Every pair two runs judge differently (faster and another state, or faster the other way), with what their conditions differ in.
            var changes = (from a in rankings
                           from b in rankings
                           where string.CompareOrdinal(a.Label, b.Label) < 0
                           from pair in PairsOf(a.Ranking!.Ranking, b.Ranking!.Ranking)
                           where !SameState(pair.A, pair.B)
                           select (a, b, pair.A, pair.B, Opposite: pair.A.Opposes(pair.B), Differences: a.Conditions.DifferencesFrom(b.Conditions))).ToList();
            foreach (var change in changes)
            {
                var mark = change.Differences.Count > 0 ? "changes " : change.Opposite ? "OPPOSITE" : "differs ";
                Console.WriteLine($"{"".PadRight(width)}  {mark} {change.a.Label} {change.A.Pair()} → {change.b.Label} {change.B.Pair()}: " +
                                  (change.Differences.Count == 0 ? "under the same conditions" : string.Join("; ", change.Differences)));
            }

            compared += rankings.Count > 1 ? 1 : 0;
            opposite += changes.Any(c => c.Opposite && c.Differences.Count == 0) ? 1 : 0;
            decidedByConditions += changes.Any(c => c.Differences.Count > 0) ? 1 : 0;
            steady += changes.Count == 0 && rankings.Count > 1 ? 1 : 0;
        }

        Console.WriteLine();
        Console.WriteLine($"{rows.Count} rows, {compared} with a ranking in two or more runs: {steady} have every pair in the same state in every run; " +
                          $"{decidedByConditions} change a pair with the conditions (the lines \"changes\" name the conditions that differ); " +
                          $"{opposite} order a pair oppositely under the same conditions.");
        return opposite > 0 ? ExitCodes.CheckFailed : ExitCodes.Ok;
    }

    private static string Row(string scenario, Transport transport) => $"{scenario}, {Display.Of(transport)}";

    /// <summary>Whether the run's idle cores polled or halted, or null for a run from before it was recorded.</summary>
    private static string? Idle(BenchmarkRun run) => CpuIdle.Polled(run.CpuIdle) switch
    {
        true => "polling",
        false => "halting",
        null => null,
    };

    private static string Describe(RunFile run, ResultSet results) =>
        $"{run.Run.Started:yyyy-MM-dd HH:mm}, {results.Rounds} round(s), {results.Cells.Count(c => c.Success)} cells, seed {run.Run.Seed}";
}
