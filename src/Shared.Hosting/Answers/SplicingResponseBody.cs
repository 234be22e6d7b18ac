using Microsoft.AspNetCore.Http.Features;

namespace ProtocolBench.Shared.Hosting.Answers;

/// <summary>
/// A response whose body is a <see cref="SplicingWriter"/>, for a framework that takes the body's writer itself and
/// serializes its answer into it synchronously (grpc-dotnet's reply): installed before the answer is written, its splices
/// sent once the endpoint has returned (<see cref="SplicedAnswersMiddleware"/>), or when the body is completed.
/// </summary>
public sealed class SplicingResponseBody(IHttpResponseBodyFeature inner, SplicingWriter writer) : IHttpResponseBodyFeature
{
    private Stream? _stream;

    public Stream Stream => _stream ??= writer.AsStream(leaveOpen: true);

    public PipeWriter Writer => writer;

    /// <summary>Makes <paramref name="http"/>'s body splice <paramref name="answers"/>; returns its writer.</summary>
    public static SplicingWriter Install(HttpContext http, SharedAnswers answers)
    {
        var inner = http.Features.GetRequiredFeature<IHttpResponseBodyFeature>();
        var writer = new SplicingWriter(http, answers, inner.Writer);
        http.Features.Set<IHttpResponseBodyFeature>(new SplicingResponseBody(inner, writer));
        return writer;
    }

    public void DisableBuffering() => inner.DisableBuffering();

    public Task StartAsync(CancellationToken cancellationToken = default) => inner.StartAsync(cancellationToken);

    public async Task SendFileAsync(string path, long offset, long? count, CancellationToken cancellationToken = default)
    {
        await writer.FlushAsync(cancellationToken);
        await inner.SendFileAsync(path, offset, count, cancellationToken);
    }

    public async Task CompleteAsync()
    {
        await writer.FlushAsync();
        await inner.CompleteAsync();
    }
}
