namespace ProtocolBench.Shared.Hosting.Budget;

/// <summary>
/// While callers wait for the response budget, every 100 ms: admits a waiter that has come of age, returns the hub answers
/// sent in full, and aborts the holders whose answers have started and whose connection's socket has sent nothing for
/// <see cref="BudgetRules.StallAfter"/>, or less than <see cref="BudgetRules.MinBytesPerSecond"/> an answer over
/// <see cref="BudgetRules.SlowAfter"/>, or whose own write has waited for its reader longer than its bytes take at that
/// rate (<see cref="Reservation.IsStalled"/>). A holder still building its answer is left alone. A budget that ran out
/// is swept on until it is whole again; then the watchdog sleeps until the next caller waits.
/// </summary>
internal sealed class StallWatchdog : IDisposable
{
    private static readonly TimeSpan SweepEvery = TimeSpan.FromMilliseconds(100);

    private readonly BudgetAdmission _admission;
    private readonly ILogger _logger;
    private readonly Timer _timer;
    private bool _sweeping;

    public StallWatchdog(BudgetAdmission admission, ILogger logger)
    {
        _admission = admission;
        _logger = logger;
        _timer = new Timer(_ => SweepOrLog(), null, Timeout.Infinite, Timeout.Infinite);
    }

    /// <summary>Under the budget's lock, when a caller starts to wait: sweeps from now on, if it does not already.</summary>
    public void Wake()
    {
        if (!_sweeping)
        {
            _sweeping = true;
            _timer.Change(SweepEvery, SweepEvery);
        }
    }

    public void Dispose() => _timer.Dispose();

    /// <summary>
    /// An exception a timer's callback lets out ends the process, and with it every caller: a sweep that fails is logged
    /// at Error (which the tests look for) and the next one, 100 ms later, tries again.
    /// </summary>
    private void SweepOrLog()
    {
        try
        {
            Sweep();
        }
        catch (Exception e)
        {
            _logger.LogError(e, "The response budget's sweep failed; the next one tries again");
        }
    }

    private void Sweep()
    {
        List<Reservation>? stalled;
        lock (_admission.Lock)
        {
            if (_admission.Waiting == 0)
            {
                if (!_admission.Exhausted)
                {
                    _sweeping = false;
                    _timer.Change(Timeout.Infinite, Timeout.Infinite);
                    return;
                }

                // Nobody waits, so nothing is aborted; but a budget that ran out sweeps on until it is whole again, returning
                // the hub answers sent in full (an idle hub connection returns its last one only with its next call), so
                // that it compacts once free.
                stalled = _admission.Delivered();
            }
            else
            {
                stalled = Judge();
            }
        }

        // Outside the lock (a release takes it): the hub answers sent in full. One aborted is returned when its connection has
        // ended, as a response's is when its request has: until then its answer is still held.
        foreach (var holder in stalled ?? [])
        {
            if (!holder.OwnsRequest && !holder.Aborted)
            {
                holder.Dispose();
            }
        }
    }

    /// <summary>Under the lock, while callers wait: admits, aborts the holders that stalled, and returns them and the hub answers sent in full.</summary>
    private List<Reservation>? Judge()
    {
        List<Reservation>? stalled = null;
        _admission.Admit();
        var now = Environment.TickCount64;
        // Each connection's socket read once, and how many started answers it carries.
        var connections = new Dictionary<ConnectionProgress, (long Sent, int Answers)>();
        foreach (var holder in _admission.Holders)
        {
            if (holder.Progress is { } connection && !holder.Aborted && holder.HasStarted)
            {
                connections[connection] = connections.TryGetValue(connection, out var seen)
                    ? seen with { Answers = seen.Answers + 1 }
                    : (connection.BytesSent, 1);
            }
        }

        foreach (var holder in _admission.Holders)
        {
            if (holder.Aborted || !holder.HasStarted || holder.Progress is not { } connection || !connections.TryGetValue(connection, out var socket))
            {
                continue;
            }

            if (holder.Delivered || holder.IsStalled(now, socket.Sent, socket.Answers))
            {
                (stalled ??= []).Add(holder);
            }
        }

        // Under the lock: a holder in the set has not ended its request, so its HttpContext is still its own.
        foreach (var holder in stalled ?? [])
        {
            if (holder.Delivered)
            {
                // A hub answer sent in full: returned by the caller, not aborted.
                continue;
            }

            holder.Aborted = true;
            _logger.LogDebug("Aborted an answer to {Path}: its connection sent nothing for {Ms} ms, too little for its {Answers} answers, or its write waited too long for its reader, while {Waiting} requests waited for the response budget",
                holder.Http.Request.Path, now - holder.ProgressAt, connections[holder.Progress!].Answers, _admission.Waiting);
            holder.Http.Abort();
        }

        return stalled;
    }
}
