using System.Diagnostics;
using ProtocolBench.Lab;
using ProtocolBench.Lab.Scenarios;
using ProtocolBench.Shared.Clients;
using ProtocolBench.Shared.Domain.Authors;

namespace ProtocolBench.Benchmarks.Suite;

/// <summary>
/// Brings freshly started services to their steady state before a round: every selected cell called for a moment,
/// then a pause for the runtime's background tier-1 compilation. Without it the first cells after a start meet
/// tier-0 code and cold pools and measure 2–6× slower (seen on 2 cores: search 111 at 3.9 ms in the first round,
/// 1.75 ms in the next ones), which is start-up, not the protocol. The services start with tiering's call-counting
/// delay off (ServiceProcess), so a few seconds of calls suffice.
/// </summary>
public static class ServiceWarmup
{
    private const int MaxCalls = 300;
    private static readonly TimeSpan Settle = TimeSpan.FromSeconds(2);

    /// <returns>How long it took, and what failed (such a cell fails again when measured, and is reported there).</returns>
    public static async Task<(TimeSpan Took, List<string> Failures)> RunAsync(
        IReadOnlyList<(Scenario Scenario, Protocol Protocol, Transport Transport)> cells, TimeSpan perCell, ClientOptions options,
        Func<Protocol, string?> problem, CancellationToken stop)
    {
        var watch = Stopwatch.StartNew();
        var failures = new List<string>();
        foreach (var group in cells.Where(c => c.Scenario.Call is not null).GroupBy(c => (c.Protocol, c.Transport)))
        {
            if (problem(group.Key.Protocol) is not null)
            {
                continue;
            }

            await using var client = ProtocolClients.Create(group.Key.Protocol, group.Key.Transport, options);
            foreach (var (scenario, _, _) in group)
            {
                var created = new List<int>();
                try
                {
                    var cell = Stopwatch.StartNew();
                    for (var i = 0; i < MaxCalls && cell.Elapsed < perCell; i++)
                    {
                        var marker = scenario.Creates ? Catalogue.CreatedName : "";
                        var result = await scenario.Call!(client, marker, stop);
                        scenario.Check(result, marker);
                        if (result is AuthorDto author && scenario.Creates)
                        {
                            created.Add(author.Id);
                        }
                    }
                }
                catch (Exception e) when (e is not OperationCanceledException || !stop.IsCancellationRequested)
                {
                    failures.Add($"{scenario} {Display.Of(group.Key.Protocol, group.Key.Transport)}: {e.Message}");
                }

                try
                {
                    foreach (var id in created)
                    {
                        await client.DeleteAuthorAsync(id, CancellationToken.None);
                    }
                }
                catch (Exception e)
                {
                    failures.Add($"{scenario} {Display.Of(group.Key.Protocol, group.Key.Transport)}: deleting what the warm-up created: {e.Message}");
                }
            }
        }

        await Task.Delay(Settle, stop);
        return (watch.Elapsed, failures);
    }
}
