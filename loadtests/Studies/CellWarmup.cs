namespace ProtocolBench.LoadTests.Studies;

/// <summary>
/// A cell's warm-up, in every study and through either engine, as the benchmark's: <see cref="Passes"/> passes of the
/// cell's requests, each followed by a wait until its service and this process are quiet (<see cref="Quiet"/>: the
/// runtime's tier-1 compilation of what the pass made hot done in the background). Twice, because with dynamic PGO a hot
/// method is compiled twice (instrumented, then final), and the calls that promote it the second time count only once
/// the first compilation is in place. Measured at once after one pass, a fresh service compiled on its own core while it
/// served the first cell: search 11 at 50 users cost it about 2.1 ms a request there, 1.5 ms after a wait
/// (docs/load-studies.md, "Warm, then quiet"). --quick, which claims nothing about speed, warms once and does not wait:
/// about a second a cell, which would double CI's load run.
/// </summary>
public static class CellWarmup
{
    /// <summary>How many times a cell is warmed up: twice; once with --quick.</summary>
    public static int Passes(LoadTestOptions options) => options.Quick ? 1 : 2;

    /// <summary>
    /// The warm-up passes of this process's users, <paramref name="pass"/> making each pass's load (numbered from 1, its
    /// requests counted in the tally given); returns that tally, every pass's requests.
    /// </summary>
    public static async Task<RequestTally> RunAsync(
        LoadTestOptions options, ServiceSession services, Protocol protocol, LiveProgress progress, string label,
        Func<int, RequestTally, UserLoad> pass, CancellationToken stop)
    {
        var tally = new RequestTally();
        for (var number = 1; number <= Passes(options); number++)
        {
            var warmup = pass(number, tally);
            progress.Begin($"{label} [grey](warm-up{(number == 1 ? "" : $" {number}")})[/]", warmup.Planned, () => warmup.Completed);
            await warmup.RunAsync(stop);
            await SettleAsync(options, services, protocol, progress, label, stop);
        }

        return tally;
    }

    /// <summary>
    /// After a warm-up pass, whoever sent it: the garbage of the pass (and of the previous cell) collected now rather than
    /// inside the measurement, then the wait for quiet.
    /// </summary>
    public static async Task SettleAsync(
        LoadTestOptions options, ServiceSession services, Protocol protocol, LiveProgress progress, string label, CancellationToken stop)
    {
        GC.Collect();
        GC.WaitForPendingFinalizers();
        await QuietAsync(options, services, protocol, progress, label, stop);
    }

    /// <summary>Waits until the service and this process are quiet after a warm-up (at most <see cref="Quiet.Most"/>); not with --quick.</summary>
    public static async Task QuietAsync(
        LoadTestOptions options, ServiceSession services, Protocol protocol, LiveProgress progress, string label, CancellationToken stop)
    {
        if (options.Quick)
        {
            return;
        }

        var clock = Stopwatch.StartNew();
        progress.Begin($"{label} [grey](quiet after the warm-up)[/]", (long)Quiet.Most.TotalMilliseconds, () => clock.ElapsedMilliseconds);
        try
        {
            var (_, quiet) = await Quiet.WaitAsync(services.ProcessId(protocol) is { } id ? [id] : [], stop);
            if (!quiet)
            {
                LiveProgress.Line($"[yellow]{label}: the service or this process was still busy {Quiet.Most.TotalSeconds:0} s after the warm-up; measured anyway[/]");
            }
        }
        catch (OperationCanceledException)
        {
            // The cell was stopped: it says so itself.
        }
    }
}
