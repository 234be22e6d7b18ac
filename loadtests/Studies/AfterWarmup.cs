namespace ProtocolBench.LoadTests.Studies;

/// <summary>
/// Between a cell's warm-up and its measurement, in every study and through either engine: wait until its service and
/// this process are quiet (<see cref="Quiet"/>: the runtime's tier-1 compilation of what the warm-up made hot done in
/// the background), as the benchmark does after its warm-up. Measured at once, a fresh service compiled on its own core
/// while it served the first cell: search 11 at 50 users cost it about 2.1 ms a request there, 1.5 ms after the wait
/// (docs/load-studies.md, "Warm, then quiet"). --quick, which claims nothing about speed, does not wait: about a
/// second a cell, which would double CI's load run.
/// </summary>
public static class AfterWarmup
{
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
