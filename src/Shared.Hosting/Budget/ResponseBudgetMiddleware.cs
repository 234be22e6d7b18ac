namespace ProtocolBench.Shared.Hosting.Budget;

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
