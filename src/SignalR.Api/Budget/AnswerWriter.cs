namespace ProtocolBench.SignalR.Api.Budget;

/// <summary>
/// The hub's writer to one connection's pipe: counts the bytes the hub writes, so that <see cref="AnswerLedger"/> knows
/// where the connection's count will stand once an answer has been sent. Long text and files are written in pieces
/// (<c>SegmentedJson</c>, as on the other services), each a WebSocket frame of its own, so that count grows as the reader
/// reads rather than all at once.
/// </summary>
internal sealed class AnswerWriter(PipeWriter inner, AnswerLedger ledger) : PipeWriterDecorator(inner)
{
    public AnswerLedger Ledger => ledger;

    /// <summary>The bytes written through this writer; SignalR writes one message at a time to a connection.</summary>
    public long Written { get; private set; }

    public override void Advance(int bytes)
    {
        Written += bytes;
        Inner.Advance(bytes);
    }

    public override ValueTask<FlushResult> WriteAsync(ReadOnlyMemory<byte> source, CancellationToken cancellationToken = default)
    {
        Written += source.Length;
        return Inner.WriteAsync(source, cancellationToken);
    }
}
