using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Timeouts;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Logging;

namespace ProtocolBench.Shared.Hosting;

/// <summary>
/// How much large answers a service builds at once. An answer is buffered whole before it is sent (a protobuf message, a
/// JSON document with a base64 file), and an HTTP/2 reader that never reads keeps those buffers until its stream ends;
/// 200 such streams asking for the PDF held 0.7 to 1.9 GB. So an operation whose answer can exceed
/// <see cref="ThresholdBytes"/> reserves its <see cref="Domain.ResponseSize"/> before it runs and keeps it until its response
/// has been written; beyond <c>Limits:ResponseBudgetMiB</c> (48) in flight, callers wait, up to their own deadline. The
/// reservation is the most the answer can hold on any protocol (its JSON bytes, and a clone's own text beside them), so
/// every protocol gets the same concurrency.
/// <para>
/// Readers that never read must not keep the budget from readers that do (fault table row 68: 100 stalled connections
/// made a reader wait 28.7 s). A share per client address would not help (a benchmark is one address), nor one per
/// connection (a hundred stalled connections hold one answer each, and a share would queue HTTP/2's multiplexed calls
/// where HTTP/1.1 opens connections); an answer is built before it is written, so it cannot be reserved at write time.
/// Instead, while anyone waits, an answer whose response has started is aborted (its HTTP/2 stream reset, its HTTP/1.1 or
/// WebSocket connection closed), which returns its reservation at once rather than when Kestrel's minimum data rate ends
/// the connection (5 s and more, or never), when its connection's socket has sent nothing for <see cref="StallAfter"/>; or
/// has sent less than <see cref="MinBytesPerSecond"/> for each answer it holds over <see cref="SlowAfter"/>; or when its
/// own write has waited for its reader <see cref="SlowAfter"/> and as long as its bytes take at that rate (an HTTP/2
/// stream nobody reads, on a connection kept sending by small answers, which Kestrel never ends). What the socket has sent
/// is what the client has taken (<see cref="ConnectionProgress.BytesSent"/>): a client that reads at any pace above the
/// floor keeps its answer, whatever the protocol writes at once. And the
/// newest waiter is admitted first, so a reader that arrives behind a queue of stalled requests is next, not last; one
/// whose connection holds no reservation goes before one whose connection does, so a connection's own queue of streams
/// does not keep other clients behind it. A waiter older than <see cref="AgeLimit"/> goes first all the same, so that no
/// caller starves under a long overload of readers that read (Facebook's adaptive LIFO, "Fail at Scale", ACM Queue 2015,
/// is the same idea). System.Threading.RateLimiting's queues
/// are strictly oldest- or newest-first, hence this queue of its own.
/// </para>
/// <para>
/// A SignalR hub sends many answers over one connection, each written after its hub method has returned: those reserve
/// with <see cref="ReserveAsync"/>, and the hub says where the connection's byte count will stand once the answer has been
/// sent (<see cref="Reservation.Written"/>); the reservation is returned there, and the stall rule above applies to it
/// from then on.
/// </para>
/// </summary>
public sealed class ResponseBudget : IDisposable
{
    public const int ThresholdBytes = 64 * 1024;

    /// <summary>How long a connection's socket may send nothing, its answer started, before the answer is taken back.</summary>
    public static readonly TimeSpan StallAfter = TimeSpan.FromMilliseconds(500);

    /// <summary>
    /// Over how long a connection's rate is judged against <see cref="MinBytesPerSecond"/> for each answer it holds, and how
    /// long one write of an answer may wait for its reader at least (or the time its bytes take at that rate, if longer).
    /// </summary>
    public static readonly TimeSpan SlowAfter = TimeSpan.FromSeconds(2);

    /// <summary>
    /// The slowest reader of one answer that keeps its reservation while others wait: 32 KiB/s, so that a client reading
    /// steadily at 64 KiB/s or more is never aborted on any protocol; Kestrel's own minimum, 240 B/s, ends only a whole
    /// connection. A connection that holds several answers (HTTP/2 streams) must send that much for each. An answer is
    /// flushed whole (System.Text.Json flushes between values, not inside one; gRPC writes a unary answer as one message),
    /// so a stream nobody reads on a connection that sends for others is seen after its answer's time at this rate: 145 s
    /// for the PDF as JSON, 109 s as protobuf.
    /// </summary>
    public const long MinBytesPerSecond = 32 * 1024;

    /// <summary>How long a waiter may wait before it goes ahead of newer ones.</summary>
    public static readonly TimeSpan AgeLimit = TimeSpan.FromSeconds(5);

    private const int BytesPerPermit = 64 * 1024;

    private static readonly TimeSpan SweepEvery = TimeSpan.FromMilliseconds(100);

    private readonly int _permits;
    private readonly Lock _lock = new();
    private readonly LinkedList<Reservation> _waiting = [];
    private readonly HashSet<Reservation> _holders = [];
    private readonly Timer _sweeper;
    private readonly MemoryReclaimer _reclaimer;
    private readonly ILogger _logger;
    private int _available;
    private bool _sweeping;
    private bool _exhausted;
    private long _collectedAt;

    public ResponseBudget(IConfiguration configuration, MemoryReclaimer reclaimer, ILogger<ResponseBudget> logger)
    {
        _reclaimer = reclaimer;
        _permits = Math.Max(1, configuration.GetValue("Limits:ResponseBudgetMiB", 48) * (1024 * 1024 / BytesPerPermit));
        _available = _permits;
        _logger = logger;
        _sweeper = new Timer(_ => Sweep(), null, Timeout.Infinite, Timeout.Infinite);
    }

    /// <summary>
    /// Reserves <paramref name="bytes"/> for this request until its response has been written (nothing under the
    /// threshold), waiting until <paramref name="cancellationToken"/> (the request's timeout or deadline) at most.
    /// </summary>
    public async ValueTask ReserveForAsync(HttpContext http, long bytes, CancellationToken cancellationToken)
    {
        if (bytes < ThresholdBytes)
        {
            return;
        }

        if (_logger.IsEnabled(LogLevel.Debug))
        {
            _logger.LogDebug("Reserving {Bytes} bytes for the answer to {Path}", bytes, http.Request.Path);
        }

        var reservation = new Reservation(this, http, bytes, PermitsFor(bytes), ownsRequest: true);
        await HoldAsync(reservation, cancellationToken);
        Attach(http, reservation);
        // A caller that gave up just as it was admitted returns its permits when its request ends.
        cancellationToken.ThrowIfCancellationRequested();
    }

    /// <summary>
    /// Reserves <paramref name="bytes"/> for one answer on a connection that carries many (a SignalR hub's WebSocket, whose
    /// upgrade request is <paramref name="connection"/>), waiting until <paramref name="cancellationToken"/> at most; null
    /// under the threshold. The caller says when the answer has been written (<see cref="Reservation.Written"/>): it is
    /// returned once the connection has sent that far, or when the caller disposes it. While others wait, one whose
    /// connection has sent nothing for <see cref="StallAfter"/> since its answer was written is aborted, like a response.
    /// </summary>
    public async ValueTask<Reservation?> ReserveAsync(HttpContext connection, long bytes, CancellationToken cancellationToken)
    {
        if (bytes < ThresholdBytes)
        {
            return null;
        }

        if (_logger.IsEnabled(LogLevel.Debug))
        {
            _logger.LogDebug("Reserving {Bytes} bytes for an answer on the connection of {Path}", bytes, connection.Request.Path);
        }

        ReleaseDelivered();
        var reservation = new Reservation(this, connection, bytes, PermitsFor(bytes), ownsRequest: false);
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

    /// <summary>Holds the reservation at once if it fits and nobody waits; otherwise queues it until admitted or cancelled.</summary>
    private async ValueTask HoldAsync(Reservation reservation, CancellationToken cancellationToken)
    {
        Task? admitted = null;
        lock (_lock)
        {
            if (_waiting.Count == 0 && _available >= reservation.Permits)
            {
                Hold(reservation);
            }
            else
            {
                admitted = Enqueue(reservation);
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

    /// <summary>
    /// <see cref="Charge(HttpContext, long)"/> for an answer reserved with <see cref="ReserveAsync"/>: raises
    /// <paramref name="reservation"/> to <paramref name="bytes"/> at once, or makes one when there was none and the answer
    /// turned out large. Returns the reservation the answer now holds (null for a small answer that had none).
    /// </summary>
    public Reservation? Charge(HttpContext connection, Reservation? reservation, long bytes)
    {
        if (reservation is null && bytes < ThresholdBytes)
        {
            return null;
        }

        lock (_lock)
        {
            if (reservation is null)
            {
                reservation = new Reservation(this, connection, bytes, PermitsFor(bytes), ownsRequest: false);
                Hold(reservation);
            }
            else if (bytes > reservation.Bytes && _holders.Contains(reservation))
            {
                Raise(reservation, bytes);
            }

            _exhausted |= _available < 0;
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
        if (reservation is null && bytes < ThresholdBytes)
        {
            return ThresholdBytes - 1;
        }

        var created = reservation is null;
        long reserved = 0;
        lock (_lock)
        {
            if (reservation is null)
            {
                reservation = new Reservation(this, http, bytes, PermitsFor(bytes), ownsRequest: true);
                Hold(reservation);
            }
            else if (bytes > reservation.Bytes && _holders.Contains(reservation))
            {
                reserved = reservation.Bytes;
                Raise(reservation, bytes);
            }
            else
            {
                return Covered(reservation);
            }

            _exhausted |= _available < 0;
        }

        if (created)
        {
            Attach(http, reservation);
        }

        var covered = Covered(reservation);
        _logger.LogDebug("Charged the answer to {Path} {Bytes} bytes: {Covered} reserved (was {Reserved})",
            http.Request.Path, bytes, Math.Min(covered, (long)_permits * BytesPerPermit), reserved);
        return covered;
    }

    private void Raise(Reservation reservation, long bytes)
    {
        var permits = PermitsFor(bytes);
        _available -= permits - reservation.Permits;
        reservation.Bytes = bytes;
        reservation.Permits = permits;
    }

    /// <summary>Returns the reservations of answers written and sent in full (a hub's, which no request's end returns).</summary>
    private void ReleaseDelivered()
    {
        List<Reservation>? delivered = null;
        lock (_lock)
        {
            foreach (var holder in _holders)
            {
                if (holder.Delivered)
                {
                    (delivered ??= []).Add(holder);
                }
            }
        }

        foreach (var reservation in delivered ?? [])
        {
            reservation.Dispose();
        }
    }

    private int PermitsFor(long bytes) => (int)Math.Min(_permits, (bytes + BytesPerPermit - 1) / BytesPerPermit);

    /// <summary>The bytes a reservation covers; all of them when it holds the whole budget.</summary>
    private long Covered(Reservation reservation) =>
        reservation.Permits == _permits ? long.MaxValue : (long)reservation.Permits * BytesPerPermit;

    private static void Attach(HttpContext http, Reservation reservation)
    {
        http.Response.RegisterForDispose(reservation);
        http.Features.Set(reservation);
        if (!http.Response.HasStarted)
        {
            reservation.Answer = ResponseProgress.Watch(http);
            http.Response.OnStarting(StopRequestTimeout, http);
        }
    }

    /// <summary>
    /// A large answer that has started is sent at its reader's pace, judged by the rules above and Kestrel's minimum rate,
    /// not by the request timeout (30 s): that one answers 504 to a handler that takes too long, which a started response no
    /// longer can, and it cut off a reader taking the PDF at 64 KiB/s (72 s) after 30 s.
    /// </summary>
    private static Task StopRequestTimeout(object state)
    {
        ((HttpContext)state).Features.Get<IHttpRequestTimeoutFeature>()?.DisableTimeout();
        return Task.CompletedTask;
    }

    private void Hold(Reservation reservation)
    {
        _available -= reservation.Permits;
        _holders.Add(reservation);
        if (reservation.Progress is { } connection)
        {
            connection.Reservations++;
        }
    }

    private Task Enqueue(Reservation reservation)
    {
        reservation.Admission = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        reservation.EnqueuedAt = Environment.TickCount64;
        reservation.Node = _waiting.AddLast(reservation);
        _exhausted = true;
        if (!_sweeping)
        {
            _sweeping = true;
            _sweeper.Change(SweepEvery, SweepEvery);
        }

        return reservation.Admission.Task;
    }

    /// <summary>Admits waiters while the permits suffice, in the order of <see cref="Next"/>.</summary>
    private void Admit()
    {
        while (_waiting.First is not null)
        {
            var next = Next();
            if (_available < next.Value.Permits)
            {
                return;
            }

            _waiting.Remove(next);
            next.Value.Node = null;
            Hold(next.Value);
            next.Value.Admission!.TrySetResult();
        }
    }

    /// <summary>
    /// The waiter to admit next: one whose connection holds no reservation before one whose connection does, so that a
    /// connection with many streams nobody reads cannot keep other clients' readers behind its own; among those the newest,
    /// or the oldest once it has waited <see cref="AgeLimit"/>. A scan of the queue, which exists only while callers wait.
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
        return Environment.TickCount64 - oldest.Value.EnqueuedAt >= AgeLimit.TotalMilliseconds ? oldest : newest;
    }

    private void Cancel(Reservation reservation)
    {
        lock (_lock)
        {
            if (reservation.Node is { } node)
            {
                _waiting.Remove(node);
                reservation.Node = null;
                reservation.Admission!.TrySetCanceled();
                Admit();
            }
        }
    }

    private void Release(Reservation reservation)
    {
        bool compact, collect = false;
        lock (_lock)
        {
            if (!_holders.Remove(reservation))
            {
                return;
            }

            if (reservation.Progress is { } connection)
            {
                connection.Reservations--;
            }

            _available += reservation.Permits;
            Admit();
            compact = _exhausted && _waiting.Count == 0 && _available == _permits;
            if (compact)
            {
                _exhausted = false;
            }
            else if (reservation.Aborted && Environment.TickCount64 - _collectedAt >= StallAfter.TotalMilliseconds)
            {
                _collectedAt = Environment.TickCount64;
                collect = true;
            }
        }

        if (compact)
        {
            Compact();
        }
        else if (collect)
        {
            // An aborted answer is garbage at once, and its place goes to another that is built at once: without a
            // collection, a stream of stalled requests would pile answers up faster than the GC's own schedule frees them.
            ThreadPool.QueueUserWorkItem(_ => GC.Collect(2, GCCollectionMode.Forced, blocking: true, compacting: false));
        }
    }

    /// <summary>
    /// While anyone waits, every 100 ms: admits a waiter that has come of age, returns the hub answers sent in full, and
    /// aborts the holders whose answers have started and whose connection's socket has sent nothing for
    /// <see cref="StallAfter"/>, or less than <see cref="MinBytesPerSecond"/> an answer over <see cref="SlowAfter"/>, or whose
    /// own write has waited for its reader longer than its bytes take at that rate. A holder still building its answer is
    /// left alone.
    /// </summary>
    private void Sweep()
    {
        List<Reservation>? stalled = null;
        lock (_lock)
        {
            if (_waiting.Count == 0)
            {
                if (!_exhausted)
                {
                    _sweeping = false;
                    _sweeper.Change(Timeout.Infinite, Timeout.Infinite);
                    return;
                }

                // Nobody waits, so nothing is aborted; but a budget that ran out sweeps on until it is whole again, returning
                // the hub answers sent in full (an idle hub connection returns its last one only with its next call), so
                // that it compacts once free.
                stalled = _holders.Where(h => h.Delivered).ToList();
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
        Admit();
        var now = Environment.TickCount64;
        // Each connection's socket read once, and how many started answers it carries.
        var connections = new Dictionary<ConnectionProgress, (long Sent, int Answers)>();
        foreach (var holder in _holders)
        {
            if (holder.Progress is { } connection && !holder.Aborted && holder.HasStarted)
            {
                connections[connection] = connections.TryGetValue(connection, out var seen)
                    ? seen with { Answers = seen.Answers + 1 }
                    : (connection.BytesSent, 1);
            }
        }

        foreach (var holder in _holders)
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
                // A hub answer sent in full: returned below, not aborted.
                continue;
            }

            holder.Aborted = true;
            _logger.LogDebug("Aborted an answer to {Path}: its connection sent nothing for {Ms} ms, too little for its {Answers} answers, or its write waited too long for its reader, while {Waiting} requests waited for the response budget",
                holder.Http.Request.Path, now - holder.ProgressAt, connections[holder.Progress!].Answers, _waiting.Count);
            holder.Http.Abort();
        }

        return stalled;
    }

    /// <summary>
    /// After the budget ran out, the last reservation to go gives the burst's memory back (a burst of large answers
    /// otherwise stays resident). This never happens while the budget suffices, so it costs the measured runs nothing.
    /// </summary>
    private void Compact() => _reclaimer.ReclaimSoon("The response budget is free again after it ran out");

    /// <summary>Bytes held for one answer until it has been sent (or its request has ended); disposing returns them.</summary>
    public sealed class Reservation : IDisposable
    {
        private readonly ResponseBudget _budget;
        private int _disposed;

        internal Reservation(ResponseBudget budget, HttpContext http, long bytes, int permits, bool ownsRequest)
        {
            _budget = budget;
            Http = http;
            Bytes = bytes;
            Permits = permits;
            OwnsRequest = ownsRequest;
            Progress = http.Features.Get<ConnectionProgress>();
        }

        internal HttpContext Http { get; }

        /// <summary>True for a request's own reservation, returned when the request ends; false for one of a connection's answers.</summary>
        internal bool OwnsRequest { get; }

        internal long Bytes { get; set; }

        internal int Permits { get; set; }

        internal ConnectionProgress? Progress { get; }

        internal ResponseProgress? Answer { get; set; }

        internal TaskCompletionSource? Admission { get; set; }

        internal LinkedListNode<Reservation>? Node { get; set; }

        internal long EnqueuedAt { get; set; }

        /// <summary>The connection's socket count when it last moved (−1 until the answer has started), and when.</summary>
        internal long Sent { get; set; } = -1;

        internal long ProgressAt { get; set; }

        /// <summary>Where the connection's socket count stood when the current rate window began, and when.</summary>
        private long WindowSent { get; set; }

        private long WindowAt { get; set; }

        internal bool Aborted { get; set; }

        /// <summary>Where the connection's byte count (<see cref="ConnectionProgress"/>) stands once the answer has been sent.</summary>
        internal long? WrittenUpTo { get; private set; }

        /// <summary>The answer is being written: its response has started, or, on a hub, it has been written.</summary>
        internal bool HasStarted => OwnsRequest ? Http.Response.HasStarted : WrittenUpTo is not null;

        /// <summary>
        /// Under the budget's lock, in a sweep: whether the answer is to be taken back, its connection's socket having sent
        /// <paramref name="sent"/> in all for <paramref name="answers"/> started answers. The first sweep after the answer
        /// started only takes the count as its start.
        /// </summary>
        internal bool IsStalled(long now, long sent, int answers)
        {
            if (Sent < 0)
            {
                (Sent, ProgressAt, WindowSent, WindowAt) = (sent, now, sent, now);
                return false;
            }

            if (sent != Sent)
            {
                (Sent, ProgressAt) = (sent, now);
            }

            if (now - ProgressAt >= StallAfter.TotalMilliseconds)
            {
                return true;
            }

            if (now - WindowAt >= SlowAfter.TotalMilliseconds)
            {
                var slow = sent - WindowSent < MinBytesPerSecond * answers * (now - WindowAt) / 1000.0;
                (WindowSent, WindowAt) = (sent, now);
                if (slow)
                {
                    return true;
                }
            }

            return Answer?.HasWaited(now, SlowAfter, MinBytesPerSecond, out _) == true;
        }

        /// <summary>Written, and sent: the connection has handed its last byte to the transport.</summary>
        internal bool Delivered => WrittenUpTo is { } upTo && Progress is { } progress && progress.BytesWritten >= upTo;

        /// <summary>
        /// The answer has been written to its connection, and is sent once the connection's byte count reaches
        /// <paramref name="upTo"/>; from now on a connection that sends nothing while others wait loses it.
        /// </summary>
        public void Written(long upTo)
        {
            lock (_budget._lock)
            {
                WrittenUpTo = upTo;
                Sent = -1;
            }
        }

        public void Dispose()
        {
            if (Interlocked.Exchange(ref _disposed, 1) == 0)
            {
                _budget.Release(this);
            }
        }
    }

    /// <summary>A feature, not an Items entry: the lookup allocates nothing on the requests that hold none.</summary>
    internal static bool HasReservation(HttpContext http) => http.Features.Get<Reservation>() is not null;

    public void Dispose() => _sweeper.Dispose();
}

public static class ResponseBudgetMiddleware
{
    /// <summary>
    /// Keeps a reservation until the answer's bytes have left Kestrel's buffers. The endpoint may return with its answer
    /// still buffered and unflushed (grpc-dotnet flushes a unary reply with its trailers, after the endpoint), and Kestrel
    /// runs the dispose callbacks before the bytes are sent; this flush waits while more than the response buffer limit
    /// is unsent, that is until the reader reads or Kestrel ends its connection. Only requests that reserved are flushed,
    /// and only once their response has started: one that has not holds no body bytes, and flushing it would send its
    /// headers without END_STREAM, which turns a gRPC trailers-only error (grpc-status in the headers) into a call that
    /// ends without a status (grpc-js: "Call ended without gRPC status").
    /// </summary>
    public static IApplicationBuilder UseResponseBudget(this IApplicationBuilder app) => app.Use(async (context, next) =>
    {
        await next(context);
        if (context.Response.HasStarted && ResponseBudget.HasReservation(context) && !context.RequestAborted.IsCancellationRequested)
        {
            try
            {
                await context.Response.BodyWriter.FlushAsync(context.RequestAborted);
            }
            catch (Exception e) when (e is OperationCanceledException or IOException or InvalidOperationException)
            {
                // The reader went away or Kestrel ended the connection: the reservation is released all the same.
            }
        }
    });
}
