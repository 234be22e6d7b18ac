using System.Diagnostics;

namespace ProtocolBench.Benchmarks.Suite;

/// <summary>
/// Brings freshly started services to their steady state before a round: every selected cell called for a moment and
/// at least <see cref="MinCalls"/> times (tiering promotes a method after 30 calls, twice with dynamic PGO: a search
/// of 3,112 authors called only for the moment, four times, was measured at twice its time for two rounds), then a
/// wait until the services and this process are quiet (<see cref="Quiet"/>: the runtime's background tier-1 compilation done),
/// then the <see cref="MinCalls"/> again for the second promotion. Without it the first cells after a start meet
/// tier-0 code and cold pools and measure several times slower, which is start-up, not the protocol
/// (docs/methodology.md, "Warm-up after each start"). The services start with tiering's call-counting delay cut short
/// (<see cref="Lab.Services.LaunchOptions.PromoteHotCodeEarly"/>), so a few seconds of calls suffice. The domain floors are warmed the same way, in this
/// process, and the loopback transfer over its socket. Cells with no time per call yet (the first round) take it from
/// the second half of their last pass's calls, warm, so that BenchConfig can size their iterations without BenchmarkDotNet's pilot stage.
/// </summary>
public static class ServiceWarmup
{
    private const int MinCalls = 64;
    private const int MaxCalls = 300;

    /// <summary>Bounds each pass's warm-up of a slow cell (a PDF over a shaped link) whatever <see cref="MinCalls"/> says.</summary>
    private static readonly TimeSpan MaxPerCell = TimeSpan.FromSeconds(2);

    /// <summary>
    /// The second pass, for services this command started: the calls that promote the instrumented code the first pass
    /// left (<see cref="MinCalls"/>, over twice the 30 tiering counts) over at least three times the services' call-counting
    /// delay of 10 ms, and at most a second a cell: not the first pass's moment again, which made every fast path hot.
    /// </summary>
    private static readonly (TimeSpan Time, TimeSpan Cap) Again = (TimeSpan.FromMilliseconds(30), TimeSpan.FromSeconds(1));
    private static readonly TimeSpan Settle = TimeSpan.FromSeconds(2);

    /// <summary>How many warm-up passes services started elsewhere get at most, and when their calls count as steady.</summary>
    private const int MaxExternalPasses = 8;
    private const double SteadyWithin = 0.05;

    /// <param name="perCall">Each cell's time per call (ns) by <see cref="Cell.Id"/>; the cells missing from it are timed and added.</param>
    /// <param name="services">The services' process ids, watched until they are quiet (<see cref="Quiet"/>); none with --external.</param>
    /// <returns>How long it took, how long the services and this process took to be quiet after it, and what failed (such a cell fails again when measured, and is reported there).</returns>
    public static async Task<(TimeSpan Took, string Quiet, List<string> Failures)> RunAsync(
        IReadOnlyList<BenchmarkCase> cases, TimeSpan perCell, SuiteRun suite, IDictionary<string, double> perCall, IReadOnlyList<int> services, CancellationToken stop)
    {
        var watch = Stopwatch.StartNew();
        var failures = new List<string>();
        var callable = cases.Where(c => Cell.ScenarioOf(c).HasRequest).ToList();
        // Twice, with the compilation the first pass started finished in between: with dynamic PGO a hot method is compiled
        // twice (instrumented, then final), and the calls that promote it the second time count only once the first
        // compilation is in place. After one pass the first row of a round met the second compilation on the services' core.
        // The second pass makes only those calls (Again).
        // Services started elsewhere (--external) cannot be watched, nor told how to start: after each pass they get a fixed
        // pause, and the passes go on while the calls still get faster (a service run by hand may have tiering's default
        // call-counting delay, which keeps its hot code unoptimised for the first minute of steady calls).
        var (settling, quiet) = (TimeSpan.Zero, true);
        var external = services.Count == 0;
        Dictionary<string, double>? before = null;
        var (passes, steady) = (0, false);
        var lastPass = new Dictionary<string, double>();
        while (passes < (external ? MaxExternalPasses : 2) && !steady)
        {
            passes++;
            var passTimes = new Dictionary<string, double>();
            lastPass.Clear();
            var budget = external || passes == 1 ? new Budget(perCell, MinCalls, MaxCalls, MaxPerCell) : new Budget(Again.Time, MinCalls, MaxCalls, Again.Cap);
            await CallEachAsync(callable, suite, failures, budget, (c, times) =>
            {
                passTimes[Cell.Id(c)] = Statistic.Median(times);
                lastPass[Cell.Id(c)] = Statistic.Median(times[(times.Count / 2)..]);
            }, stop);
            if (external)
            {
                await Task.Delay(Settle, stop);
                steady = before is not null && Steady(before, passTimes);
                before = passTimes;
            }

            (settling, quiet) = await Quiet.WaitAsync(services, stop);
        }

        foreach (var (cell, time) in lastPass)
        {
            perCall.TryAdd(cell, time);
        }

        var said = external
            ? steady ? $"{passes} passes, the last as fast as the one before" : $"{passes} passes, the calls still getting faster: measuring anyway"
            : quiet
                ? $"quiet after {settling.TotalSeconds:F1} s"
                : $"still busy after {settling.TotalSeconds:F0} s: measuring anyway";
        return (watch.Elapsed, said, failures);
    }

    /// <summary>
    /// Whether a warm-up pass found the calls as fast as the pass before: the geometric mean of the cells' ratios
    /// (this pass's median time per call ÷ the last one's) fell by less than <see cref="SteadyWithin"/>.
    /// </summary>
    private static bool Steady(IReadOnlyDictionary<string, double> before, IReadOnlyDictionary<string, double> after)
    {
        var ratios = after.Where(a => before.TryGetValue(a.Key, out var b) && b > 0 && a.Value > 0).Select(a => a.Value / before[a.Key]).ToList();
        return ratios.Count > 0 && Statistic.GeometricMean(ratios) >= 1 - SteadyWithin;
    }

    /// <summary>A cell's calls in one pass: for <see cref="Time"/>, at least <see cref="Min"/> and at most <see cref="Max"/> of them, and never past <see cref="Cap"/>.</summary>
    private readonly record struct Budget(TimeSpan Time, int Min, int Max, TimeSpan Cap);

    /// <summary>Calls each case's scenario for its budget, one client per protocol and transport.</summary>
    private static async Task CallEachAsync(
        IReadOnlyList<BenchmarkCase> cases, SuiteRun suite, List<string> failures,
        Budget budget, Action<BenchmarkCase, List<double>> timed, CancellationToken stop)
    {
        foreach (var group in cases.GroupBy(Cell.Where))
        {
            var first = group.First();
            var problem = Cell.HasProtocol(first) ? suite.Problem(Cell.ProtocolOf(first))
                : Cell.IsLoopbackTransfer(first) ? suite.Problem(Protocol.Rest)
                : suite.Interrupted;
            if (problem is not null)
            {
                continue;
            }

            // In process the benchmark's own code is warmed: the Shared.Domain path and its pooled connections.
            await using var owned = Cell.HasProtocol(first) ? ProtocolClients.Create(Cell.ProtocolOf(first), Cell.TransportOf(first), suite.ClientOptions)
                : Cell.IsLoopbackTransfer(first) ? LoopbackTransfer.Client(suite.ClientOptions)
                : (ILibraryOperations?)null;
            var client = owned ?? suite.Domain;
            foreach (var benchmarkCase in group)
            {
                var scenario = Cell.ScenarioOf(benchmarkCase);
                var (time, min, max, cap) = budget;
                var times = new List<double>();
                try
                {
                    var cell = Stopwatch.StartNew();
                    while (times.Count < max && cell.Elapsed < cap && (times.Count < min || cell.Elapsed < time))
                    {
                        var started = Stopwatch.GetTimestamp();
                        await scenario.CallAsync(client, suite.Marker(scenario), stop);
                        times.Add(Stopwatch.GetElapsedTime(started).TotalNanoseconds);
                    }

                    timed(benchmarkCase, times);
                }
                catch (Exception e) when (e is not OperationCanceledException || !stop.IsCancellationRequested)
                {
                    failures.Add($"{scenario} {group.Key}: {e.Message}");
                }

                try
                {
                    if (scenario.Creates)
                    {
                        await suite.DeleteCreatedAsync(client);
                    }
                }
                catch (Exception e)
                {
                    failures.Add($"{scenario} {group.Key}: deleting what the warm-up created: {e.Message}");
                }
            }
        }
    }
}
