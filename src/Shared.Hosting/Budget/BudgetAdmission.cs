namespace ProtocolBench.Shared.Hosting.Budget;

/// <summary>
/// The response budget's ledger: its permits of 64 KiB, the reservations that hold them, the callers that wait, and the
/// order waiters are admitted in (<see cref="Next"/>). Every member that reads or changes the ledger is called under
/// <see cref="Lock"/>, which the watchdog and the reservations take too.
/// </summary>
internal sealed class BudgetAdmission(int permits)
{
    public const int BytesPerPermit = 64 * 1024;

    private readonly LinkedList<Reservation> _waiting = [];
    private readonly int _permits = permits;

    public Lock Lock { get; } = new();

    /// <summary>The reservations that hold permits (a set, so that iterating it allocates nothing).</summary>
    public HashSet<Reservation> Holders { get; } = [];

    public int Available { get; private set; } = permits;

    public int Waiting => _waiting.Count;

    /// <summary>The budget ran out (a caller waited, or a charge overdrew it) since it was last whole.</summary>
    public bool Exhausted { get; set; }

    /// <summary>Nobody waits and every permit is back.</summary>
    public bool IsWhole => _waiting.Count == 0 && Available == _permits;

    /// <summary>The whole budget in bytes.</summary>
    public long Bytes => (long)_permits * BytesPerPermit;

    public int PermitsFor(long bytes) => (int)Math.Min(_permits, (bytes + BytesPerPermit - 1) / BytesPerPermit);

    /// <summary>The bytes a reservation covers; all of them when it holds the whole budget.</summary>
    public long Covered(Reservation reservation) =>
        reservation.Permits == _permits ? long.MaxValue : (long)reservation.Permits * BytesPerPermit;

    /// <summary>The hub answers written and sent in full, or null: theirs to return, as no request's end returns them.</summary>
    public List<Reservation>? Delivered()
    {
        List<Reservation>? delivered = null;
        foreach (var holder in Holders)
        {
            if (holder.Delivered)
            {
                (delivered ??= []).Add(holder);
            }
        }

        return delivered;
    }

    /// <summary>Holds the reservation at once if it fits and nobody waits.</summary>
    public bool TryHold(Reservation reservation)
    {
        if (_waiting.Count > 0 || Available < reservation.Permits)
        {
            return false;
        }

        Hold(reservation);
        return true;
    }

    /// <summary>Holds the reservation whether it fits or not (an answer already built is charged at once, not kept waiting).</summary>
    public void Hold(Reservation reservation)
    {
        Available -= reservation.Permits;
        Exhausted |= Available < 0;
        Holders.Add(reservation);
        if (reservation.Progress is { } connection)
        {
            connection.Reservations++;
        }
    }

    /// <summary>Raises a held reservation to <paramref name="bytes"/> at once (a list of authors charged its real size).</summary>
    public void Raise(Reservation reservation, long bytes)
    {
        var permits = PermitsFor(bytes);
        Available -= permits - reservation.Permits;
        Exhausted |= Available < 0;
        reservation.Bytes = bytes;
        reservation.Permits = permits;
    }

    /// <summary>Queues the reservation; the task completes when it is admitted, or is cancelled by <see cref="Cancel"/>.</summary>
    public Task Enqueue(Reservation reservation)
    {
        reservation.Admission = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        reservation.EnqueuedAt = Environment.TickCount64;
        reservation.Node = _waiting.AddLast(reservation);
        Exhausted = true;
        return reservation.Admission.Task;
    }

    /// <summary>Admits waiters while the permits suffice, in the order of <see cref="Next"/>.</summary>
    public void Admit()
    {
        while (_waiting.First is not null)
        {
            var next = Next();
            if (Available < next.Value.Permits)
            {
                return;
            }

            _waiting.Remove(next);
            next.Value.Node = null;
            Hold(next.Value);
            next.Value.Admission!.TrySetResult();
        }
    }

    /// <summary>A waiter that gave up leaves the queue (its place may let others in).</summary>
    public void Cancel(Reservation reservation)
    {
        if (reservation.Node is { } node)
        {
            _waiting.Remove(node);
            reservation.Node = null;
            reservation.Admission!.TrySetCanceled();
            Admit();
        }
    }

    /// <summary>Takes back a held reservation's permits and admits whom they let in; false when it held none.</summary>
    public bool Return(Reservation reservation)
    {
        if (!Holders.Remove(reservation))
        {
            return false;
        }

        if (reservation.Progress is { } connection)
        {
            connection.Reservations--;
        }

        Available += reservation.Permits;
        Admit();
        return true;
    }

    /// <summary>
    /// The waiter to admit next: one whose connection holds no reservation before one whose connection does, so that a
    /// connection with many streams nobody reads cannot keep other clients' readers behind its own; among those the newest,
    /// or the oldest once it has waited <see cref="BudgetRules.AgeLimit"/>. A scan of the queue, which exists only while
    /// callers wait.
    /// </summary>
    private LinkedListNode<Reservation> Next()
    {
        LinkedListNode<Reservation>? oldest = null, newest = null;
        for (var node = _waiting.First; node is not null; node = node.Next)
        {
            if ((node.Value.Progress?.Reservations ?? 0) == 0)
            {
                oldest ??= node;
                newest = node;
            }
        }

        oldest ??= _waiting.First!;
        newest ??= _waiting.Last!;
        return Environment.TickCount64 - oldest.Value.EnqueuedAt >= BudgetRules.AgeLimit.TotalMilliseconds ? oldest : newest;
    }
}
