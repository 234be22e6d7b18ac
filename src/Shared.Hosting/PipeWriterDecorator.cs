namespace ProtocolBench.Shared.Hosting;

/// <summary>A <see cref="PipeWriter"/> that passes everything to <paramref name="inner"/>; a decorator overrides what it watches.</summary>
public abstract class PipeWriterDecorator(PipeWriter inner) : PipeWriter
{
    protected PipeWriter Inner { get; } = inner;

    public override void Advance(int bytes) => Inner.Advance(bytes);

    public override Memory<byte> GetMemory(int sizeHint = 0) => Inner.GetMemory(sizeHint);

    public override Span<byte> GetSpan(int sizeHint = 0) => Inner.GetSpan(sizeHint);

    public override ValueTask<FlushResult> FlushAsync(CancellationToken cancellationToken = default) => Inner.FlushAsync(cancellationToken);

    public override void CancelPendingFlush() => Inner.CancelPendingFlush();

    public override void Complete(Exception? exception = null) => Inner.Complete(exception);

    public override ValueTask CompleteAsync(Exception? exception = null) => Inner.CompleteAsync(exception);

    public override bool CanGetUnflushedBytes => Inner.CanGetUnflushedBytes;

    public override long UnflushedBytes => Inner.UnflushedBytes;
}
