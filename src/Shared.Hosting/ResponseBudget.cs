using System.Threading.RateLimiting;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Configuration;

namespace ProtocolBench.Shared.Hosting;

/// <summary>
/// How much large answers a service builds at once. An answer is buffered whole before it is sent (a protobuf message, a
/// JSON document with a base64 file), and an HTTP/2 reader that never reads keeps those buffers until Kestrel ends its
/// connection (about 7 s: <c>MinResponseDataRate</c> counts flow-control waits); 200 such streams asking for the PDF held
/// 0.7 to 1.9 GB. So an operation whose answer can exceed <see cref="ThresholdBytes"/> reserves its
/// <see cref="Domain.ResponseSize"/> before it runs and keeps it until its response has been written; beyond
/// <c>Limits:ResponseBudgetMiB</c> (48) in flight, callers wait in arrival order, up to their own deadline. The reservation is
/// the payload's size, not its encoded size, so every protocol gets the same concurrency; a per-connection share is not
/// used because it would queue HTTP/2's multiplexed calls where HTTP/1.1 opens connections.
/// </summary>
public sealed class ResponseBudget : IDisposable
{
    public const int ThresholdBytes = 64 * 1024;

    private const int BytesPerPermit = 64 * 1024;

    private readonly int _permits;

    private readonly ConcurrencyLimiter _limiter;

    public ResponseBudget(IConfiguration configuration)
    {
        _permits = Math.Max(1, configuration.GetValue("Limits:ResponseBudgetMiB", 48) * (1024 * 1024 / BytesPerPermit));
        _limiter = new ConcurrencyLimiter(new ConcurrencyLimiterOptions
        {
            PermitLimit = _permits,
            QueueLimit = int.MaxValue,
            QueueProcessingOrder = QueueProcessingOrder.OldestFirst,
        });
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

        var permits = (int)Math.Min(_permits, (bytes + BytesPerPermit - 1) / BytesPerPermit);
        if (_limiter.GetStatistics()?.CurrentAvailablePermits < permits)
        {
            Volatile.Write(ref _exhausted, 1);
        }

        var lease = await _limiter.AcquireAsync(permits, cancellationToken);
        var reservation = new Reservation(this, lease);
        http.Response.RegisterForDispose(reservation);
        http.Features.Set(reservation);
        // A caller that gave up while waiting may still be handed permits: it returns them at once.
        cancellationToken.ThrowIfCancellationRequested();
    }

    private int _exhausted;

    /// <summary>
    /// After the budget ran out, the last reservation to go compacts the heap once: a burst of large answers otherwise
    /// stays resident (server GC keeps its heap without allocations: 551 MiB 30 s after a burst of stalled searches).
    /// This never happens while the budget suffices, so it costs the measured runs nothing.
    /// </summary>
    private void Released()
    {
        if (Volatile.Read(ref _exhausted) == 1 && _limiter.GetStatistics()?.CurrentAvailablePermits == _permits
            && Interlocked.Exchange(ref _exhausted, 0) == 1)
        {
            ThreadPool.QueueUserWorkItem(_ => GC.Collect(2, GCCollectionMode.Aggressive, blocking: true, compacting: true));
        }
    }

    private sealed class Reservation(ResponseBudget budget, RateLimitLease lease) : IDisposable
    {
        private int _disposed;

        public void Dispose()
        {
            if (Interlocked.Exchange(ref _disposed, 1) == 0)
            {
                lease.Dispose();
                budget.Released();
            }
        }
    }

    /// <summary>A feature, not an Items entry: the lookup allocates nothing on the requests that hold none.</summary>
    internal static bool HasReservation(HttpContext http) => http.Features.Get<Reservation>() is not null;

    public void Dispose() => _limiter.Dispose();
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
