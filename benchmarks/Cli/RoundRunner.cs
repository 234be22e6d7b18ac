using System.Diagnostics;
using BenchmarkDotNet.Configs;
using ProtocolBench.Benchmarks.Config;
using ProtocolBench.Benchmarks.Stacks;
using ProtocolBench.Lab.Conditions;
using ProtocolBench.Lab.Services;
using ProtocolBench.Lab.Stacks;

namespace ProtocolBench.Benchmarks.Cli;

/// <summary>
/// The rounds: before each, the services restarted when due and warmed up after every start; then BenchmarkDotNet
/// over the rows still open in this round's shuffled order, each cell's iterations sized from its time per call in the
/// round before. In a sequential design (<see cref="RoundDesign"/>) every row is measured the minimum number of times;
/// then a look closes the rows whose pairs are all decided (or too close to the 10 % line for more rounds to decide them or give them a claim),
/// and the rest are measured up to the maximum. A scenario's domain floor and loopback transfer are measured while any
/// of its rows is. Stops early on Ctrl+C, SIGTERM or a failed restart. Under --client other than dotnet, the cells over a
/// protocol are measured through that stack (<see cref="StackRunner"/>) after BenchmarkDotNet's in each round, and the
/// ones it cannot make are not measured at all.
/// </summary>
public sealed class RoundRunner(
    BenchOptions options, BenchmarkDotNetArguments arguments, ServiceSession session, SuiteRun suite, long? clientMask, string results, Interruption interruption)
{
    private readonly ServerCostDiagnoser _cost = new(session.Meter);
    private readonly WireBytesDiagnoser _wire = new(suite.Wire);
    private readonly StackRunner? _stack = options.Common.Conditions.Client == ClientStack.Dotnet
        ? null
        : new StackRunner(options.Common.Conditions.Client, suite.ClientOptions);

    public async Task<MeasuredRounds> RunAsync()
    {
        var design = options.Design;
        var progress = new ProgressReporter(design, () => interruption.Requested);
        var random = new Random(options.Seed);
        var rounds = new List<MeasuredRound>();
        var restarts = new List<double>();
        var selection = arguments.Select(BenchmarkCommand.SuiteTypes, RoundConfig(results, random, progress, allocations: true));
        var rows = selection.Where(Cell.HasProtocol).Select(c => (Cell.ScenarioOf(c), Cell.TransportOf(c))).ToHashSet();
        var foreign = await ForeignCellsAsync(selection);
        var made = foreign.Where(f => f.Call is not null).Select(f => f.Case).ToHashSet();
        var open = rows.ToHashSet();
        // After the first look, the cells of the open rows that are in a pair of which more rounds could tell more; null before it.
        HashSet<(Scenario, Transport, Protocol)>? openCells = null;
        var settled = new HashSet<(Scenario, Transport)>();
        var onTheLine = new HashSet<(Scenario, Transport)>();
        // Each cell's time per call (the warm-up's timing pass, then its median in the last round): sizes its iterations.
        var perCall = new Dictionary<string, double>();
        var warm = false;
        for (var round = 1; round <= design.Maximum && !interruption.Requested && (open.Count > 0 || round <= design.Minimum); round++)
        {
            var inOpenRows = Measures(open, openCells, round);
            // Through another stack: BenchmarkDotNet measures what has no protocol; a cell the stack cannot make, nobody.
            Func<BenchmarkCase, bool> measures = _stack is null ? inOpenRows : c => inOpenRows(c) && (!Cell.HasProtocol(c) || made.Contains(c));
            if (round > 1 && options.RestartEvery > 0 && (round - 1) % options.RestartEvery == 0 && !session.External)
            {
                Console.WriteLine($"Restarting the services before round {round} ...");
                try
                {
                    if (await session.RestartAsync() is { } seconds)
                    {
                        restarts.Add(seconds);
                        warm = false;
                        Console.WriteLine($"  healthy again after {seconds:F1} s");
                    }
                }
                catch (Exception e) when (e is OperationCanceledException or LaunchException)
                {
                    Console.Error.WriteLine(interruption.Requested ? "  stopped while restarting" : $"  {e.Message}");
                    break;
                }
            }

            // A dry run measures each cell once and claims nothing about speed: no warm-up.
            if (!warm && selection.Count > 0 && options.Job != JobKind.Smoke)
            {
                try
                {
                    var (took, quiet, failures) = await ServiceWarmup.RunAsync(
                        [.. selection.Where(measures)], BenchConfig.WarmupPerCell, suite, perCall, session.ProcessIds, interruption.Token);
                    Console.WriteLine($"Warmed the services up for round {round}: every cell of the round called for a moment ({took.TotalSeconds:F1} s; {quiet}).");
                    failures.ForEach(f => Console.Error.WriteLine($"  warm-up: {f}"));
                }
                catch (OperationCanceledException) when (interruption.Requested)
                {
                    break;
                }

                warm = true;
            }
            else if (options.Job != JobKind.Smoke)
            {
                // No warm-up (no restart): the round before may have left a collection or compilation running.
                try
                {
                    await Quiet.WaitAsync(session.ProcessIds, interruption.Token);
                }
                catch (OperationCanceledException) when (interruption.Requested)
                {
                    break;
                }
            }

            progress.StartRound(round, open.Count < rows.Count ? $"{open.Count} of {rows.Count} rows still open" : null);
            var config = RoundConfig(Path.Combine(results, BenchmarkCommand.RoundFolder(round)), random, progress, allocations: round == 1, cost: round <= design.Minimum);
            // The classes in a new order too: the floor is not always measured first, right after a restart.
            var types = BenchmarkCommand.SuiteTypes.ToArray();
            random.Shuffle(types);
            var dropped = _cost.Dropped;
            var summaries = RunRound(types, config, perCall, _stack is null ? measures : c => measures(c) && !Cell.HasProtocol(c));
            var measured = MeasuredRound.From(round, summaries, results, _cost.TakeRound());
            if (_stack is not null)
            {
                measured = measured with { Results = [.. measured.Results, .. await MeasureThroughStackAsync(foreign.Where(f => measures(f.Case) && f.Call is not null).ToArray(), round, random)] };
            }

            rounds.Add(measured);
            if (_cost.Dropped > dropped)
            {
                Console.WriteLine($"  server cost: {_cost.Dropped - dropped} cell(s) not read in round {round}: the service's meter collected after the next requests began");
            }

            foreach (var (benchmarkCase, result) in measured.Results.Where(r => r.Result.Success))
            {
                perCall[Cell.Id(benchmarkCase)] = result.Median;
            }

            if (design.Sequential && round == design.Minimum && !interruption.Requested)
            {
                var looked = Look(design, rounds, open);
                settled.UnionWith(looked.Where(l => l.Settled).Select(l => l.Row));
                open = [.. looked.Where(l => design.MeasuresAgain(l.Rounds, l.Settled, l.CouldTellMore)).Select(l => l.Row)];
                openCells = [.. looked.Where(l => open.Contains(l.Row)).SelectMany(l => l.Open.Select(protocol => (l.Row.Item1, l.Row.Item2, protocol)))];
                onTheLine.UnionWith(looked.Where(l => design.StopsOnTheLine(l.Rounds, l.Settled, l.CouldTellMore)).Select(l => l.Row));
                Console.WriteLine($"After round {round}: {settled.Count} of {rows.Count} rows settled (every pair faster or level), " +
                                  (onTheLine.Count > 0 ? $"{onTheLine.Count} with undecided pairs too close to the 10 % line for more rounds to decide or to give a claim, " : "") +
                                  (open.Count > 0 ? $"{open.Count} measured to round {design.Maximum}, {openCells.Count} of their {selection.Count(c => Cell.HasProtocol(c) && open.Contains((Cell.ScenarioOf(c), Cell.TransportOf(c))))} cells (those in a pair more rounds could decide or give a claim)." : "none measured again."));
            }
        }

        return new MeasuredRounds(rounds, restarts, progress.Unreached)
        {
            NotMade = [.. foreign.Where(f => f.CannotMake is not null).Select(f => (f.Case, f.CannotMake!))],
        };
    }

    /// <summary>Each selected cell over a protocol as the --client stack makes it (none under dotnet).</summary>
    private async Task<List<ForeignCell>> ForeignCellsAsync(IEnumerable<BenchmarkCase> selection)
    {
        if (_stack is null)
        {
            return [];
        }

        var cells = new List<ForeignCell>();
        foreach (var benchmarkCase in selection.Where(Cell.HasProtocol))
        {
            cells.Add(await ForeignCell.OfAsync(options.Common.Conditions.Client, benchmarkCase, suite.Marker(Cell.ScenarioOf(benchmarkCase))));
        }

        var cannot = cells.Count(c => c.CannotMake is not null);
        Console.WriteLine($"Client: {options.Common.Conditions.Client.Name()} makes {cells.Count - cannot} of the {cells.Count} cells over a protocol" +
                          (cannot > 0 ? $"; the {cannot} it cannot make are listed in the report and not measured." : "."));
        return cells;
    }

    /// <summary>One round's cells through the --client stack, in a shuffled order, each one's result as a round's; a failure is a failed round.</summary>
    private async Task<List<(BenchmarkCase, RoundResult)>> MeasureThroughStackAsync(ForeignCell[] cells, int round, Random random)
    {
        random.Shuffle(cells);
        var results = new List<(BenchmarkCase, RoundResult)>();
        var stack = options.Common.Conditions.Client.Name();
        Console.WriteLine();
        Console.WriteLine($"== Round {round} · through the {stack} client: {cells.Length} cells");
        for (var i = 0; i < cells.Length && !interruption.Requested; i++)
        {
            var cell = cells[i];
            var took = Stopwatch.StartNew();
            var name = $"{cell.Scenario.Name,-15} {Display.Of(cell.Protocol).PadRight(Display.NameWidth)} {Display.Of(cell.Transport),-5}";
            RoundResult result;
            try
            {
                Func<Task<RoundResult>> measure = () => cell.MeasureAsync(_stack!, options.Common.Conditions.Connections, options.Job, round, interruption.Token);
                result = cell.Scenario.Creates ? await CreatingAsync(measure) : await measure();
                Console.WriteLine($"  [{i + 1,4}/{cells.Length}] {name} median {Format.Time(result.Median),10}  ({took.Elapsed.TotalSeconds:F1} s, {stack})");
            }
            catch (OperationCanceledException) when (interruption.Requested)
            {
                break;
            }
            catch (Exception e) when (e is InvalidDataException or InvalidOperationException or TimeoutException or ProtocolClientException or FormatException)
            {
                result = new RoundResult(round, false, double.NaN, double.NaN, double.NaN, [], AllocatedPerOp: null);
                Console.Error.WriteLine($"  [{i + 1,4}/{cells.Length}] {name} FAILED through {stack}: {e.Message}");
            }

            results.Add((cell.Case, result));
        }

        return results;
    }

    /// <summary>A create's cell through the stack, with what earlier runs left deleted before it and what it wrote after (as the .NET cells' set-up and clean-up do).</summary>
    private async Task<RoundResult> CreatingAsync(Func<Task<RoundResult>> measure)
    {
        await using var rest = ProtocolClients.Create(Protocol.Rest, Transport.Http, suite.ClientOptions);
        await suite.DeleteLeftoversAsync(rest);
        try
        {
            return await measure();
        }
        finally
        {
            await suite.DeleteCreatedAsync(rest);
        }
    }

    /// <summary>
    /// What a round measures: the cells of its open rows, after the first look only those in a pair of which more rounds
    /// could tell more (a cell whose pairs are decided keeps their first look's intervals: <see cref="ResultSet.Ratio"/>); a domain
    /// floor or loopback transfer while a row of its scenario is open (or up to the minimum).
    /// </summary>
    private Func<BenchmarkCase, bool> Measures(IReadOnlySet<(Scenario, Transport)> open, IReadOnlySet<(Scenario, Transport, Protocol)>? openCells, int round) =>
        c => Cell.HasProtocol(c)
            ? open.Contains((Cell.ScenarioOf(c), Cell.TransportOf(c))) && (openCells is null || openCells.Contains((Cell.ScenarioOf(c), Cell.TransportOf(c), Cell.ProtocolOf(c))))
            : round <= options.Design.Minimum || open.Any(row => row.Item1 == Cell.ScenarioOf(c));

    /// <summary>
    /// The look after the minimum: each open row's rounds so far, whether its ranking over them is settled (every pair
    /// decided), and whether more rounds could tell more of an undecided pair (<see cref="RoundDesign.CouldTellMore"/>); the
    /// design measures again the rows that are not settled and could be (<see cref="RoundDesign.MeasuresAgain"/>), and of
    /// those only the cells in such a pair. A row with fewer than two protocols measured has nothing to decide: it is
    /// closed, not settled.
    /// </summary>
    private static List<((Scenario, Transport) Row, int Rounds, bool Settled, bool CouldTellMore, IEnumerable<Protocol> Open)> Look(
        RoundDesign design, IEnumerable<MeasuredRound> rounds, IEnumerable<(Scenario, Transport)> open)
    {
        var results = new ResultSet(BenchmarkCommand.Cells(rounds.SelectMany(r => r.Results).Where(r => Cell.HasProtocol(r.Case))), [], [], design);
        return [.. open.Select(row => results.RankingOf(row.Item1, row.Item2) is { } ranking
            ? (row, ranking.Rounds, ranking.Ranking.Settled, ranking.CouldTellMore,
               ranking.Open.SelectMany(p => new[] { p.Faster, p.Slower }).Distinct().Select(name => Display.Protocols.First(p => Display.Of(p) == name)))
            : (row, design.Maximum, false, false, Enumerable.Empty<Protocol>()))];
    }

    /// <param name="cost">
    /// Read the services' cost: in the rounds every row is measured in (up to the minimum), not in the rounds after the
    /// first look. Its two pauses are about half of a cell's time beyond its iterations, and the rounds after the look are there to decide the open rows' times; read in the same rounds for
    /// every row, the cost's intervals do not depend on which rows the look kept open (docs/methodology.md, "Where a round's time goes").
    /// </param>
    private IConfig RoundConfig(string folder, Random random, ProgressReporter progress, bool allocations, bool cost = true) =>
        arguments.Apply(BenchConfig.Create(options.Job, options.Verbose, folder, clientMask, new InterleavedOrderer(random), progress, _wire, allocations, cost ? _cost : null));

    /// <summary>One round as BenchmarkSwitcher would run it, with each cell's iterations sized (<see cref="SuiteJob.SizeIterations"/>).</summary>
    private static List<Summary> RunRound(Type[] types, IConfig config, IReadOnlyDictionary<string, double> perCall, Func<BenchmarkCase, bool> measures)
    {
        var plan = types
            .Select(type => SuiteJob.SizeIterations(BenchmarkConverter.TypeToBenchmarks(type, config), perCall, measures))
            .Where(info => info.BenchmarksCases.Length > 0)
            .ToArray();
        return plan.Length == 0 ? [] : [.. BenchmarkRunner.Run(plan)];
    }
}
