namespace ProtocolBench.Lab.Costs;

/// <summary>
/// Waits until the services and this process have stopped working in the background (tier-1 compilation of what a
/// warm-up made hot, a garbage collection), so that the first cells measured after a warm-up do not share a core with
/// it. A service answering one request at a time on a core where another thread runs waits for that thread's time
/// slice on every request: the first cells of a round measured up to 57× their time in the other rounds
/// (docs/methodology.md, "Quiet before measuring"). Quiet: over a window, the services together used at most
/// <see cref="ServiceAllowance"/> of CPU by the kernel's account and this process at most <see cref="ClientAllowance"/>.
/// </summary>
public static class Quiet
{
    public static readonly TimeSpan Window = TimeSpan.FromMilliseconds(500);

    /// <summary>Two of the kernel's 10 ms ticks: what the services' meters and timers take in a window, and no compilation.</summary>
    public static readonly TimeSpan ServiceAllowance = TimeSpan.FromMilliseconds(20);

    /// <summary>What this process's own readers of the meters take in a window (the client's threads are otherwise idle).</summary>
    public static readonly TimeSpan ClientAllowance = TimeSpan.FromMilliseconds(25);

    /// <summary>Enough for a fresh service's compilation backlog on a shared core; past it, measuring starts anyway and the line says so.</summary>
    public static readonly TimeSpan Most = TimeSpan.FromSeconds(20);

    /// <param name="services">The services' process ids (none with --external: then this process alone is watched).</param>
    /// <returns>How long it took, and whether it ended quiet (false: <see cref="Most"/> passed first).</returns>
    public static async Task<(TimeSpan Took, bool Quiet)> WaitAsync(IReadOnlyList<int> services, CancellationToken stop)
    {
        var watch = Stopwatch.StartNew();
        var before = Read(services);
        while (watch.Elapsed < Most)
        {
            await Task.Delay(Window, stop);
            var now = Read(services);
            var quiet = now.Services - before.Services <= ServiceAllowance && now.Client - before.Client <= ClientAllowance;
            before = now;
            if (quiet)
            {
                return (watch.Elapsed, true);
            }
        }

        return (watch.Elapsed, false);
    }

    private static (TimeSpan Services, TimeSpan Client) Read(IReadOnlyList<int> services) => (
        TimeSpan.FromSeconds(services.Sum(id => KernelCpu.Seconds(id) ?? 0)),
        Environment.CpuUsage.TotalTime);
}
