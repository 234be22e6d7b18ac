namespace ProtocolBench.SignalR.Api.Budget;

/// <summary>
/// The hub's writer to one connection's pipe: counts the bytes the hub writes, so that <see cref="AnswerLedger"/> knows
/// where the connection's count will stand once an answer has been sent. Long text is written in pieces
/// (<c>SegmentedJson</c>, as on the other services), each a WebSocket frame of its own, so that count grows as the reader
/// reads rather than all at once; a file by reference, spliced into the message below this writer (<see cref="Splicing"/>,
/// <see cref="SplicedCompletions"/>) and sent a piece at a time.
/// </summary>
internal sealed class AnswerWriter(SplicingWriter inner, AnswerLedger ledger) : PipeWriterDecorator(inner)
{
    private long _written;

    public AnswerLedger Ledger => ledger;

    /// <summary>The writer below this one, which takes a shared file by reference.</summary>
    public SplicingWriter Splicing => inner;

    /// <summary>The bytes written through this writer, spliced ones too; SignalR writes one message at a time to a connection.</summary>
    public long Written => _written + inner.SplicedBytes;

    public override void Advance(int bytes)
    {
        _written += bytes;
        Inner.Advance(bytes);
    }

    public override ValueTask<FlushResult> WriteAsync(ReadOnlyMemory<byte> source, CancellationToken cancellationToken = default)
    {
        _written += source.Length;
        return Inner.WriteAsync(source, cancellationToken);
    }
}
