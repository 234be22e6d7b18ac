using Microsoft.AspNetCore.Http.Timeouts;

namespace ProtocolBench.Shared.Hosting.Budget;

/// <summary>
/// Bytes of the <see cref="ResponseBudget"/> held for one answer until it has been sent (or its request has ended);
/// disposing returns them. Its state is read and written under the budget's lock (<see cref="BudgetAdmission.Lock"/>).
/// </summary>
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

    /// <summary>Written, and sent: the connection has handed its last byte to the transport.</summary>
    internal bool Delivered => WrittenUpTo is { } upTo && Progress is { } progress && progress.BytesWritten >= upTo;

    /// <summary>
    /// Under the budget's lock, in a sweep: whether the answer is to be taken back, its connection's socket having sent
    /// <paramref name="sent"/> in all for <paramref name="answers"/> started answers (the rules of <see cref="ResponseBudget"/>).
    /// The first sweep after the answer started only takes the count as its start.
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

        if (now - ProgressAt >= BudgetRules.StallAfter.TotalMilliseconds)
        {
            return true;
        }

        if (now - WindowAt >= BudgetRules.SlowAfter.TotalMilliseconds)
        {
            var slow = sent - WindowSent < BudgetRules.MinBytesPerSecond * answers * (now - WindowAt) / 1000.0;
            (WindowSent, WindowAt) = (sent, now);
            if (slow)
            {
                return true;
            }
        }

        return Answer?.HasWaited(now, BudgetRules.SlowAfter, BudgetRules.MinBytesPerSecond, out _) == true;
    }

    /// <summary>
    /// The answer has been written to its connection, and is sent once the connection's byte count reaches
    /// <paramref name="upTo"/>; from now on a connection that sends nothing while others wait loses it.
    /// </summary>
    public void Written(long upTo)
    {
        lock (_budget.Admission.Lock)
        {
            WrittenUpTo = upTo;
            Sent = -1;
        }
    }

    /// <summary>
    /// A request's own reservation: returned when the request ends, found by the request (a feature, not an Items entry:
    /// the lookup allocates nothing on the requests that hold none), its answer watched once it starts.
    /// </summary>
    internal void AttachToRequest()
    {
        Http.Response.RegisterForDispose(this);
        Http.Features.Set(this);
        if (!Http.Response.HasStarted)
        {
            Answer = ResponseProgress.Watch(Http);
            Http.Response.OnStarting(StopRequestTimeout, Http);
        }
    }

    public void Dispose()
    {
        if (Interlocked.Exchange(ref _disposed, 1) == 0)
        {
            _budget.Release(this);
        }
    }

    /// <summary>
    /// A large answer that has started is sent at its reader's pace, judged by the budget's rules and Kestrel's minimum
    /// rate, not by the request timeout (30 s): that one answers 504 to a handler that takes too long, which a started
    /// response no longer can, and it cut off a reader taking the PDF at 64 KiB/s (72 s) after 30 s.
    /// </summary>
    private static Task StopRequestTimeout(object state)
    {
        ((HttpContext)state).Features.Get<IHttpRequestTimeoutFeature>()?.DisableTimeout();
        return Task.CompletedTask;
    }
}
