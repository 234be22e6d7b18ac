namespace ProtocolBench.Shared.Hosting.Budget;

/// <summary>
/// How much large answers a service builds at once. An answer is buffered whole before it is sent (a protobuf message,
/// a JSON document with a base64 file), and an HTTP/2 reader that never reads keeps those buffers until its stream
/// ends; 200 such streams asking for the PDF held 0.7 to 1.9 GB. So an operation whose answer can exceed
/// <see cref="BudgetRules.ThresholdBytes"/> reserves its <see cref="Domain.ResponseSize"/> before it runs and keeps it
/// until its response has been written; beyond <c>Limits:ResponseBudgetMiB</c> (48) in flight, callers wait, up to
/// their own deadline. The reservation is the most the answer can hold on any protocol (its JSON bytes, and a clone's
/// own text beside them), so every protocol gets the same concurrency. An answer that is the same for every caller (a file)
/// reserves nothing: each reader is written the one shared copy, a piece at a time (<see cref="Answers.SharedAnswers"/>).
/// <para>
/// Readers that never read must not keep the budget from readers that do (fault table row 68: 100 stalled connections
/// made a reader wait 28.7 s). A share per client address would not help (a benchmark is one address), nor one per
/// connection (a hundred stalled connections hold one answer each, and a share would queue HTTP/2's multiplexed calls
/// where HTTP/1.1 opens connections); an answer is built before it is written, so it cannot be reserved at write time.
/// Instead, while anyone waits, an answer whose response has started is aborted (its HTTP/2 stream reset, its HTTP/1.1
/// or WebSocket connection closed), which returns its reservation at once rather than when Kestrel's minimum data rate
/// ends the connection (5 s and more, or never), when its connection's socket has sent nothing for
/// <see cref="BudgetRules.StallAfter"/>; or has sent less than <see cref="BudgetRules.MinBytesPerSecond"/> for each
/// answer it holds over <see cref="BudgetRules.SlowAfter"/>; or when its own write has waited for its reader
/// <see cref="BudgetRules.SlowAfter"/> and as long as its bytes take at that rate (an HTTP/2 stream nobody reads, on a
/// connection kept sending by small answers, which Kestrel never ends). What the socket has sent is what the client has
/// taken (<see cref="ConnectionProgress.BytesSent"/>): a client that reads at any pace above the floor keeps its
/// answer, whatever the protocol writes at once. And the newest waiter is admitted first, so a reader that arrives
/// behind a queue of stalled requests is next, not last; one whose connection holds no reservation goes before one
/// whose connection does, so a connection's own queue of streams does not keep other clients behind it. A waiter older
/// than <see cref="BudgetRules.AgeLimit"/> goes first all the same, so that no caller starves under a long overload of
/// readers that read (Facebook's adaptive LIFO, "Fail at Scale", ACM Queue 2015, is the same idea).
/// System.Threading.RateLimiting's queues are strictly oldest- or newest-first, hence this queue of its own.
/// </para>
/// <para>
/// A SignalR hub sends many answers over one connection, each written after its hub method has returned: those reserve
/// with <see cref="ReserveAsync"/>, and the hub says where the connection's byte count will stand once the answer has
/// been sent (<see cref="Reservation.Written"/>); the reservation is returned there, and the stall rule above applies
/// to it from then on.
/// </para>
/// <para>
/// The parts: this class takes reservations and charges; <see cref="BudgetAdmission"/> keeps the permits and the queue;
/// <see cref="StallWatchdog"/> sweeps while callers wait; <see cref="Reservation"/> is one answer's hold and judges its
/// connection's progress (<see cref="ConnectionProgress"/>, <see cref="ResponseProgress"/>);
/// <see cref="MemoryReclaimer"/> gives a burst's memory back; <see cref="ResponseBudgetMiddleware"/> keeps a
/// reservation until its bytes have left Kestrel. Each service binds it in its own Budget/ folder
/// (docs/response-budget.md).
/// </para>
/// </summary>
public sealed class ResponseBudget : IDisposable
{
    private readonly BudgetAdmission _admission;
    private readonly StallWatchdog _watchdog;
    private readonly MemoryReclaimer _reclaimer;
    private readonly ILogger _logger;

    public ResponseBudget(IConfiguration configuration, MemoryReclaimer reclaimer, ILogger<ResponseBudget> logger)
    {
        _admission = new BudgetAdmission(Math.Max(1, configuration.GetValue("Limits:ResponseBudgetMiB", 48) * (1024 * 1024 / BudgetAdmission.BytesPerPermit)));
        _watchdog = new StallWatchdog(_admission, logger);
        _reclaimer = reclaimer;
        _logger = logger;
    }

    internal BudgetAdmission Admission => _admission;

    /// <summary>
    /// Reserves <paramref name="bytes"/> for this request until its response has been written (nothing under the
    /// threshold), waiting until <paramref name="cancellationToken"/> (the request's timeout or deadline) at most.
    /// </summary>
    public async ValueTask ReserveForAsync(HttpContext http, long bytes, CancellationToken cancellationToken)
    {
        if (bytes < BudgetRules.ThresholdBytes)
        {
            return;
        }

        if (_logger.IsEnabled(LogLevel.Debug))
        {
            _logger.LogDebug("Reserving {Bytes} bytes for the answer to {Path}", bytes, http.Request.Path);
        }

        var reservation = new Reservation(this, http, bytes, _admission.PermitsFor(bytes), ownsRequest: true);
        await HoldAsync(reservation, cancellationToken);
        reservation.AttachToRequest();
        // A caller that gave up just as it was admitted returns its permits when its request ends.
        cancellationToken.ThrowIfCancellationRequested();
    }

    /// <summary>
    /// Reserves <paramref name="bytes"/> for one answer on a connection that carries many (a SignalR hub's WebSocket, whose
    /// upgrade request is <paramref name="connection"/>), waiting until <paramref name="cancellationToken"/> at most; null
    /// under the threshold. The caller says when the answer has been written (<see cref="Reservation.Written"/>): it is
    /// returned once the connection has sent that far, or when the caller disposes it. While others wait, one whose
    /// connection has sent nothing for <see cref="BudgetRules.StallAfter"/> since its answer was written is aborted, like a response.
    /// </summary>
    public async ValueTask<Reservation?> ReserveAsync(HttpContext connection, long bytes, CancellationToken cancellationToken)
    {
        if (bytes < BudgetRules.ThresholdBytes)
        {
            return null;
        }

        if (_logger.IsEnabled(LogLevel.Debug))
        {
            _logger.LogDebug("Reserving {Bytes} bytes for an answer on the connection of {Path}", bytes, connection.Request.Path);
        }

        ReleaseDelivered();
        var reservation = new Reservation(this, connection, bytes, _admission.PermitsFor(bytes), ownsRequest: false);
        try
        {
            await HoldAsync(reservation, cancellationToken);
            cancellationToken.ThrowIfCancellationRequested();
        }
        catch (OperationCanceledException)
        {
            // A caller that gave up, perhaps just as it was admitted: no request's end returns its permits.
            reservation.Dispose();
            throw;
        }

        return reservation;
    }

    /// <summary>
    /// <see cref="Charge(HttpContext, long)"/> for an answer reserved with <see cref="ReserveAsync"/>: raises
    /// <paramref name="reservation"/> to <paramref name="bytes"/> at once, or makes one when there was none and the answer
    /// turned out large. Returns the reservation the answer now holds (null for a small answer that had none).
    /// </summary>
    public Reservation? Charge(HttpContext connection, Reservation? reservation, long bytes)
    {
        if (reservation is null && bytes < BudgetRules.ThresholdBytes)
        {
            return null;
        }

        lock (_admission.Lock)
        {
            if (reservation is null)
            {
                reservation = new Reservation(this, connection, bytes, _admission.PermitsFor(bytes), ownsRequest: false);
                _admission.Hold(reservation);
            }
            else if (bytes > reservation.Bytes && _admission.Holders.Contains(reservation))
            {
                _admission.Raise(reservation, bytes);
            }
        }

        return reservation;
    }

    /// <summary>
    /// Raises this request's reservation to <paramref name="bytes"/>, the size of an answer it has built, when that is more
    /// than it reserved (a search or a page whose authors have long names: their size is known only after the query, and
    /// <see cref="Domain.ResponseSize.Search"/> reserves 128 bytes an author). At once, not waiting: the answer exists, and
    /// waiting would only hold it longer; later callers wait for it instead. So no answer is sent that was charged less
    /// than its size. Returns how many bytes the request may now write before it must be charged again.
    /// </summary>
    public long Charge(HttpContext http, long bytes)
    {
        var reservation = http.Features.Get<Reservation>();
        if (reservation is null && bytes < BudgetRules.ThresholdBytes)
        {
            return BudgetRules.ThresholdBytes - 1;
        }

        var created = reservation is null;
        long reserved = 0;
        lock (_admission.Lock)
        {
            if (reservation is null)
            {
                reservation = new Reservation(this, http, bytes, _admission.PermitsFor(bytes), ownsRequest: true);
                _admission.Hold(reservation);
            }
            else if (bytes > reservation.Bytes && _admission.Holders.Contains(reservation))
            {
                reserved = reservation.Bytes;
                _admission.Raise(reservation, bytes);
            }
            else
            {
                return _admission.Covered(reservation);
            }
        }

        if (created)
        {
            reservation.AttachToRequest();
        }

        var covered = _admission.Covered(reservation);
        _logger.LogDebug("Charged the answer to {Path} {Bytes} bytes: {Covered} reserved (was {Reserved})",
            http.Request.Path, bytes, Math.Min(covered, _admission.Bytes), reserved);
        return covered;
    }

    /// <summary>A feature, not an Items entry: the lookup allocates nothing on the requests that hold none.</summary>
    internal static bool HasReservation(HttpContext http) => http.Features.Get<Reservation>() is not null;

    /// <summary>
    /// Returns a reservation's permits. After the budget ran out, the last one to go gives the burst's memory back (a burst
    /// of large answers otherwise stays resident; this never happens while the budget suffices, so it costs the measured
    /// runs nothing); an aborted answer is collected at once.
    /// </summary>
    internal void Release(Reservation reservation)
    {
        bool compact;
        lock (_admission.Lock)
        {
            if (!_admission.Return(reservation))
            {
                return;
            }

            compact = _admission.Exhausted && _admission.IsWhole;
            if (compact)
            {
                _admission.Exhausted = false;
            }
        }

        if (compact)
        {
            _reclaimer.ReclaimSoon("The response budget is free again after it ran out");
        }
        else if (reservation.Aborted)
        {
            _reclaimer.CollectAborted();
        }
    }

    public void Dispose() => _watchdog.Dispose();

    /// <summary>Holds the reservation at once if it fits and nobody waits; otherwise queues it until admitted or cancelled.</summary>
    private async ValueTask HoldAsync(Reservation reservation, CancellationToken cancellationToken)
    {
        Task? admitted = null;
        lock (_admission.Lock)
        {
            if (!_admission.TryHold(reservation))
            {
                admitted = _admission.Enqueue(reservation);
                _watchdog.Wake();
            }
        }

        if (admitted is not null)
        {
            await using (cancellationToken.Register(() => Cancel(reservation)))
            {
                await admitted;
            }
        }
    }

    private void Cancel(Reservation reservation)
    {
        lock (_admission.Lock)
        {
            _admission.Cancel(reservation);
        }
    }

    /// <summary>Returns the reservations of answers written and sent in full (a hub's, which no request's end returns).</summary>
    private void ReleaseDelivered()
    {
        List<Reservation>? delivered;
        lock (_admission.Lock)
        {
            delivered = _admission.Delivered();
        }

        foreach (var reservation in delivered ?? [])
        {
            reservation.Dispose();
        }
    }
}
