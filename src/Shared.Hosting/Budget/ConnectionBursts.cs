namespace ProtocolBench.Shared.Hosting.Budget;

/// <summary>
/// Gives a burst of connections' memory back once it has ended. Each open connection holds its own buffers (Kestrel's,
/// TLS's, a hub's pipes; a hub connection with a stream nobody reads, about 0.3 MiB), and server GC keeps the heap they
/// grew while nothing allocates: 300 such connections left the hub +146 MiB 10 s after they closed. Once at least
/// <see cref="Burst"/> connections have closed since the most that were open, and at most half that many remain, the
/// <see cref="MemoryReclaimer"/> runs when no connection has closed for <see cref="Quiet"/>. The measured runs keep a
/// few connections open at a time (the load's virtual users, 50 at most), so it never runs during them.
/// </summary>
public sealed class ConnectionBursts : IDisposable
{
    /// <summary>How many connections must have closed, since the most that were open, for a burst to have ended.</summary>
    public const int Burst = 100;

    /// <summary>How long no connection may close before the burst counts as over.</summary>
    public static readonly TimeSpan Quiet = TimeSpan.FromSeconds(1);

    private readonly Lock _lock = new();
    private readonly MemoryReclaimer _reclaimer;
    private readonly Timer _timer;
    private int _open;
    private int _peak;

    public ConnectionBursts(MemoryReclaimer reclaimer)
    {
        _reclaimer = reclaimer;
        _timer = new Timer(_ => Reclaim());
    }

    public void Opened()
    {
        lock (_lock)
        {
            _open++;
            _peak = Math.Max(_peak, _open);
        }
    }

    public void Closed()
    {
        lock (_lock)
        {
            _open--;
            if (_peak - _open >= Burst && _open <= _peak / 2)
            {
                // Each close of the burst puts the reclamation off again, so that it runs once, after the last.
                _timer.Change(Quiet, Timeout.InfiniteTimeSpan);
            }
        }
    }

    public void Dispose() => _timer.Dispose();

    private void Reclaim()
    {
        int ended;
        lock (_lock)
        {
            ended = _peak - _open;
            _peak = _open;
        }

        _reclaimer.ReclaimSoon($"{ended} connections closed");
    }
}
