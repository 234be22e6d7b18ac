using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;
using ProtocolBench.Benchmarks.Config;
using ProtocolBench.Benchmarks.Suite;
using ProtocolBench.Lab;
using ProtocolBench.Lab.Services;

namespace ProtocolBench.Benchmarks.Cli;

/// <summary>
/// The rounds: before each, the services restarted when due and warmed up after every start; then BenchmarkDotNet
/// over the selection in this round's shuffled order, each cell's iterations sized from its time per call in the round
/// before. Stops early on Ctrl+C, SIGTERM or a failed restart.
/// </summary>
public sealed class RoundRunner(
    BenchOptions options, BenchmarkDotNetArguments arguments, ServiceSession session, SuiteRun suite, long? clientMask, string results, Interruption interruption)
{
    private readonly ServerCostDiagnoser _cost = new(session.Meter);

    public async Task<MeasuredRounds> RunAsync()
    {
        var progress = new ProgressReporter(suite.Wire, options.Rounds);
        var random = new Random(options.Seed);
        var rounds = new List<(int Round, IReadOnlyList<Summary> Summaries)>();
        var restarts = new List<double>();
        var selection = arguments.Select(BenchmarkCommand.SuiteTypes, RoundConfig(results, random, progress, allocations: true));
        // Each cell's time per call (the warm-up's timing pass, then its median in the last round): sizes its iterations.
        var perCall = new Dictionary<string, double>();
        var warm = false;
        for (var round = 1; round <= options.Rounds && !interruption.Requested; round++)
        {
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
                    var (took, failures) = await ServiceWarmup.RunAsync(selection, BenchConfig.WarmupPerCell, suite, perCall, interruption.Token);
                    Console.WriteLine($"Warmed the services up for round {round}: every selected cell called for a moment ({took.TotalSeconds:F1} s).");
                    failures.ForEach(f => Console.Error.WriteLine($"  warm-up: {f}"));
                }
                catch (OperationCanceledException) when (interruption.Requested)
                {
                    break;
                }

                warm = true;
            }

            progress.StartRound(round);
            var config = RoundConfig(Path.Combine(results, BenchmarkCommand.RoundFolder(round)), random, progress, allocations: round == 1);
            // The classes in a new order too: the floor is not always measured first, right after a restart.
            var types = BenchmarkCommand.SuiteTypes.ToArray();
            random.Shuffle(types);
            var dropped = _cost.Dropped;
            var summaries = RunRound(types, config, perCall);
            rounds.Add((round, summaries));
            if (_cost.Dropped > dropped)
            {
                Console.WriteLine($"  server cost: {_cost.Dropped - dropped} cell(s) not read in round {round}: the service's meter collected after the next requests began");
            }

            foreach (var report in summaries.SelectMany(s => s.Reports).Where(r => r.Success))
            {
                perCall[Cell.Id(report.BenchmarkCase)] = report.ResultStatistics!.Median;
            }
        }

        return new MeasuredRounds(rounds, suite.Wire, restarts);
    }

    private IConfig RoundConfig(string folder, Random random, ProgressReporter progress, bool allocations) =>
        arguments.Apply(BenchConfig.Create(options, folder, clientMask, suite.Wire, new InterleavedOrderer(random), progress, allocations, _cost));

    /// <summary>One round as BenchmarkSwitcher would run it, with each cell's iterations sized (<see cref="BenchConfig.SizeIterations"/>).</summary>
    private static List<Summary> RunRound(Type[] types, IConfig config, IReadOnlyDictionary<string, double> perCall)
    {
        var plan = types
            .Select(type => BenchConfig.SizeIterations(BenchmarkConverter.TypeToBenchmarks(type, config), perCall))
            .Where(info => info.BenchmarksCases.Length > 0)
            .ToArray();
        return plan.Length == 0 ? [] : [.. BenchmarkRunner.Run(plan)];
    }
}
