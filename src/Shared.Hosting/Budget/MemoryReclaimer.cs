namespace ProtocolBench.Shared.Hosting.Budget;

/// <summary>
/// Gives a burst's memory back once it is over: a second after it is asked (the requests or connections that held the
/// burst have ended by then), Kestrel's idle buffers are let go (<see cref="ReleasingMemoryPoolFactory"/>) and the heap is
/// collected and compacted once. Server GC keeps its heap while nothing allocates (551 MiB 30 s after a burst of stalled
/// searches; +280 MiB 65 s after 250 unfinished hub messages closed). Asked only after a burst that ran into a limit, so it
/// costs the measured runs nothing; asks while one is pending are one.
/// </summary>
public sealed class MemoryReclaimer(ReleasingMemoryPoolFactory buffers, ILogger<MemoryReclaimer> logger)
{
    private static readonly TimeSpan After = TimeSpan.FromSeconds(1);

    private int _pending;
    private long _collectedAt;

    /// <summary>Reclaims a second from now; <paramref name="burst"/> says in the log what it followed.</summary>
    public void ReclaimSoon(string burst)
    {
        if (Interlocked.Exchange(ref _pending, 1) == 1)
        {
            return;
        }

        _ = Task.Delay(After).ContinueWith(
            _ =>
            {
                Volatile.Write(ref _pending, 0);
                var before = Environment.WorkingSet;
                var released = buffers.ReleaseIdle();
                GC.Collect(2, GCCollectionMode.Aggressive, blocking: true, compacting: true);
                logger.LogInformation("{Burst}: {Released} MiB of idle buffers released, heap compacted, working set {Before} → {After} MiB",
                    burst, released >> 20, before >> 20, Environment.WorkingSet >> 20);
            },
            TaskScheduler.Default);
    }

    /// <summary>
    /// An aborted answer is garbage at once, and its place goes to another that is built at once: without a collection, a
    /// stream of stalled requests would pile answers up faster than the GC's own schedule frees them. One every
    /// <see cref="BudgetRules.StallAfter"/> at most.
    /// </summary>
    public void CollectAborted()
    {
        var last = Volatile.Read(ref _collectedAt);
        var now = Environment.TickCount64;
        if (now - last >= BudgetRules.StallAfter.TotalMilliseconds && Interlocked.CompareExchange(ref _collectedAt, now, last) == last)
        {
            ThreadPool.QueueUserWorkItem(_ => GC.Collect(2, GCCollectionMode.Forced, blocking: true, compacting: false));
        }
    }
}
