using Microsoft.AspNetCore.Http.Features;

namespace ProtocolBench.Shared.Hosting.Answers;

public static class SplicedAnswersMiddleware
{
    /// <summary>
    /// Sends what a <see cref="SplicingResponseBody"/> holds once the endpoint has returned: grpc-dotnet writes a unary reply
    /// and leaves it unflushed (Kestrel sends it with the trailers), so the shared bytes spliced into it go out here, a piece
    /// at a time as the reader takes them, until the reader has them all or leaves.
    /// </summary>
    public static IApplicationBuilder UseSplicedAnswers(this IApplicationBuilder app) => app.Use(async (context, next) =>
    {
        await next(context);
        if (context.Features.Get<IHttpResponseBodyFeature>() is SplicingResponseBody { Writer: SplicingWriter { HasSplices: true } writer })
        {
            try
            {
                await writer.FlushAsync(context.RequestAborted);
            }
            catch (Exception e) when (e is OperationCanceledException or IOException)
            {
                // The reader went away or Kestrel ended its connection.
            }
        }
    });
}
