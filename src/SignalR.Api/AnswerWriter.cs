using System.IO.Pipelines;
using ProtocolBench.Shared.Hosting;

namespace ProtocolBench.SignalR.Api;

/// <summary>
/// The hub's writer to one connection's pipe: counts the bytes (for <see cref="AnswerLedger"/>) and hands a large answer on
/// in pieces of <see cref="Piece"/> bytes. SignalR's protocols ask for the whole of a long string or file at once (JSON's
/// writer for six bytes a character), and the WebSocket sends each piece of the pipe as a frame of its own: so a large
/// answer leaves as frames the connection accepts one after another, and the connection's byte count grows as its reader
/// reads instead of taking the whole answer at once. The extra cost is a copy of the large answers, and 4 bytes of frame
/// header for each 64 KiB.
/// </summary>
internal sealed class AnswerWriter(PipeWriter inner, AnswerLedger ledger) : PipeWriterDecorator(inner)
{
    private const int Piece = 64 * 1024;

    private byte[]? _large;

    public AnswerLedger Ledger => ledger;

    /// <summary>The bytes written through this writer; SignalR writes one message at a time to a connection.</summary>
    public long Written { get; private set; }

    public override Memory<byte> GetMemory(int sizeHint = 0)
    {
        if (sizeHint <= Piece)
        {
            _large = null;
            return Inner.GetMemory(sizeHint);
        }

        return _large = GC.AllocateUninitializedArray<byte>(sizeHint);
    }

    public override Span<byte> GetSpan(int sizeHint = 0) => GetMemory(sizeHint).Span;

    public override void Advance(int bytes)
    {
        Written += bytes;
        if (_large is null)
        {
            Inner.Advance(bytes);
            return;
        }

        var source = _large.AsSpan(0, bytes);
        _large = null;
        while (!source.IsEmpty)
        {
            var piece = Math.Min(source.Length, Piece);
            source[..piece].CopyTo(Inner.GetSpan(piece));
            Inner.Advance(piece);
            source = source[piece..];
        }
    }
}
