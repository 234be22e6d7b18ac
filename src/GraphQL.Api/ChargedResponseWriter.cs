using System.IO.Pipelines;

namespace ProtocolBench.GraphQL.Api;

/// <summary>
/// The response body (<paramref name="body"/>) as GraphQL writes it, charging the <see cref="ResponseBudget"/> for every byte beyond what the request
/// reserved before it executed. A GraphQL answer's size is known only as it is written: aliases repeat a field, and a
/// list's names may be long. By hand because the framework has no counting writer; a write within the reservation costs
/// one comparison.
/// </summary>
internal sealed class ChargedResponseWriter(HttpContext http, ResponseBudget budget, PipeWriter body) : PipeWriter
{
    private readonly PipeWriter _body = body;
    private long _written;
    private long _covered = -1;

    public override void Advance(int bytes)
    {
        _written += bytes;
        if (_written > _covered)
        {
            _covered = budget.Charge(http, _written);
        }

        _body.Advance(bytes);
    }

    public override Memory<byte> GetMemory(int sizeHint = 0) => _body.GetMemory(sizeHint);

    public override Span<byte> GetSpan(int sizeHint = 0) => _body.GetSpan(sizeHint);

    public override ValueTask<FlushResult> FlushAsync(CancellationToken cancellationToken = default) => _body.FlushAsync(cancellationToken);

    public override void CancelPendingFlush() => _body.CancelPendingFlush();

    /// <summary>The response ends the body; the serializer does not.</summary>
    public override void Complete(Exception? exception = null)
    {
    }

    public override bool CanGetUnflushedBytes => _body.CanGetUnflushedBytes;

    public override long UnflushedBytes => _body.UnflushedBytes;
}
