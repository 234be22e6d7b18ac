using Microsoft.AspNetCore.Mvc;

namespace ProtocolBench.Shared.Hosting;

/// <summary>
/// A request whose HTTP framing is broken is the client's mistake, answered with a 4xx and logged at Debug. Kestrel
/// refuses most framing errors with <see cref="BadHttpRequestException"/> (400, 408, 413), but a chunk size that
/// overflows (<c>FFFFFFFF</c>) reaches the application as an <see cref="IOException"/> around an
/// <see cref="OverflowException"/>, which ASP.NET Core's exception handler would answer with 500 and an error-level stack trace.
/// A client that goes away, or breaks HTTP/2 (a body longer than its Content-Length), ends its request with an
/// <see cref="IOException"/> or <see cref="OperationCanceledException"/> that is logged at Debug too: the exception handler
/// checks <c>RequestAborted</c>, which Kestrel cancels on the thread pool, after the exception may already have arrived.
/// </summary>
public static class MalformedRequests
{
    /// <summary>The status for a request body that could not be read because of the client, or null when it is not that.</summary>
    public static int? StatusOf(Exception exception) => exception switch
    {
        BadHttpRequestException bad => bad.StatusCode,
        IOException { InnerException: OverflowException } => StatusCodes.Status400BadRequest,
        _ => null,
    };

    /// <summary>
    /// Whether <paramref name="exception"/> is the client's connection or stream going away or breaking the protocol:
    /// the request was aborted, or Kestrel's transport says so (ConnectionAbortedException, or the stream error it wraps in
    /// an IOException; Http2StreamErrorException is internal, so it is known by its name).
    /// </summary>
    public static bool IsClientAbort(Exception exception, CancellationToken requestAborted) =>
        exception is IOException or OperationCanceledException
        && (requestAborted.IsCancellationRequested
            || exception is Microsoft.AspNetCore.Connections.ConnectionAbortedException
            || exception.InnerException is Microsoft.AspNetCore.Connections.ConnectionAbortedException
            || exception.InnerException?.GetType().Name is "Http2StreamErrorException" or "Http3StreamErrorException");

    /// <summary>Answers what escapes the endpoints with <see cref="StatusOf"/>'s status and a problem body.</summary>
    public static IApplicationBuilder UseMalformedRequestAnswers(this IApplicationBuilder app) => app.Use(async (context, next) =>
    {
        try
        {
            await next(context);
        }
        catch (Exception e) when (IsClientAbort(e, context.RequestAborted))
        {
            Logger(context).LogDebug("The client of {Path} went away or broke the protocol: {Reason}", context.Request.Path, e.Message);
            context.Abort();
        }
        catch (Exception e) when (StatusOf(e) is { } status && !context.Response.HasStarted)
        {
            Logger(context).LogDebug("Refused a malformed request to {Path} with {Status}: {Reason}", context.Request.Path, status, e.Message);
            context.Response.Clear();
            context.Response.StatusCode = status;
            var problem = new ProblemDetails
            {
                Status = status,
                Title = status == StatusCodes.Status413PayloadTooLarge ? "Content too large" : "Bad request",
                Detail = status == StatusCodes.Status413PayloadTooLarge
                    ? $"The request body is larger than {Domain.Limits.RequestBodyMaxBytes} bytes."
                    : "The request could not be read: its framing or body is malformed.",
                Extensions = { ["code"] = status == StatusCodes.Status413PayloadTooLarge ? "REQUEST_TOO_LARGE" : "BAD_REQUEST" },
            };
            if (context.RequestServices.GetService<IProblemDetailsService>() is not { } problems
                || !await problems.TryWriteAsync(new ProblemDetailsContext { HttpContext = context, ProblemDetails = problem }))
            {
                await context.Response.WriteAsJsonAsync(problem);
            }
        }
    });

    private static ILogger Logger(HttpContext context) =>
        context.RequestServices.GetRequiredService<ILoggerFactory>().CreateLogger(typeof(MalformedRequests).FullName!);
}
