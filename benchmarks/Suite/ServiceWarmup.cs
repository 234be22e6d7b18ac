using System.Diagnostics;
using BenchmarkDotNet.Running;
using ProtocolBench.Lab;
using ProtocolBench.Shared.Clients;

namespace ProtocolBench.Benchmarks.Suite;

/// <summary>
/// Brings freshly started services to their steady state before a round: every selected cell called for a moment and
/// at least <see cref="MinCalls"/> times (tiering promotes a method after 30 calls, twice with dynamic PGO: a search
/// of 3,112 authors called only for the moment, four times, was measured at twice its time for two rounds), then a
/// pause for the runtime's background tier-1 compilation. Without it the first cells after a start meet
/// tier-0 code and cold pools and measure several times slower, which is start-up, not the protocol
/// (docs/methodology.md, "Warm-up after each start"). The services start with tiering's call-counting delay cut short
/// (<see cref="Lab.Services.LaunchOptions.PromoteHotCodeEarly"/>), so a few seconds of calls suffice. The domain floors are warmed the same way, in this
/// process, and the loopback transfer over its socket. Then cells with no time per call yet (the first round) are timed for a moment, warm, so that BenchConfig
/// can size their iterations without BenchmarkDotNet's pilot stage.
/// </summary>
public static class ServiceWarmup
{
    private const int MinCalls = 64;
    private const int MaxCalls = 300;

    /// <summary>Bounds the warm-up of a slow cell (a PDF over a shaped link) whatever <see cref="MinCalls"/> says.</summary>
    private static readonly TimeSpan MaxPerCell = TimeSpan.FromSeconds(2);
    private static readonly TimeSpan Settle = TimeSpan.FromSeconds(2);
    private static readonly TimeSpan TimingPerCell = TimeSpan.FromMilliseconds(25);

    /// <param name="perCall">Each cell's time per call (ns) by <see cref="Cell.Id"/>; the cells missing from it are timed and added.</param>
    /// <returns>How long it took, and what failed (such a cell fails again when measured, and is reported there).</returns>
    public static async Task<(TimeSpan Took, List<string> Failures)> RunAsync(
        IReadOnlyList<BenchmarkCase> cases, TimeSpan perCell, SuiteRun suite, IDictionary<string, double> perCall, CancellationToken stop)
    {
        var watch = Stopwatch.StartNew();
        var failures = new List<string>();
        var callable = cases.Where(c => Cell.ScenarioOf(c).HasRequest).ToList();
        await CallEachAsync(callable, suite, failures, (perCell, MinCalls, MaxCalls), (_, _) => { }, stop);
        await Task.Delay(Settle, stop);
        await CallEachAsync(
            [.. callable.Where(c => !perCall.ContainsKey(Cell.Id(c)))], suite, failures, (TimingPerCell, 3, 50),
            (c, times) => perCall[Cell.Id(c)] = Statistic.Median(times), stop);
        return (watch.Elapsed, failures);
    }

    /// <summary>Calls each case's scenario for its budget (time, at least and at most so many calls), one client per protocol and transport.</summary>
    private static async Task CallEachAsync(
        IReadOnlyList<BenchmarkCase> cases, SuiteRun suite, List<string> failures,
        (TimeSpan Time, int Min, int Max) budget, Action<BenchmarkCase, List<double>> timed, CancellationToken stop)
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
                var (time, min, max) = budget;
                var times = new List<double>();
                try
                {
                    var cell = Stopwatch.StartNew();
                    while (times.Count < max && cell.Elapsed < MaxPerCell && (times.Count < min || cell.Elapsed < time))
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
