using System.Buffers;
using System.Runtime.InteropServices;
using System.Text.Json;

namespace ProtocolBench.Shared.Hosting.Answers;

/// <summary>
/// A response writer that takes a shared answer's bytes (<see cref="SharedAnswers"/>) by reference where a serializer
/// would copy them: a JSON serializer writes an answer synchronously into the response's buffers, so a file inside it was
/// a copy of its own for each reader until the reader had taken it. A splice holds its place in the answer; what is
/// written after it is kept aside (a few bytes: the rest of the document), and at the next flush the bytes before it,
/// the shared bytes a piece at a time, and the rest go out in order. By hand: no served library splices a pipe.
/// <para>
/// A JSON converter finds the writer of the answer it is writing through <see cref="Current"/>, set around the serializer
/// by whoever made the writer (the converter sees only its <see cref="Utf8JsonWriter"/>).
/// </para>
/// </summary>
public sealed class SplicingWriter(HttpContext http, SharedAnswers answers, PipeWriter inner) : PipeWriterDecorator(inner)
{
    private static readonly AsyncLocal<SplicingWriter?> CurrentWriter = new();

    private Queue<(ReadOnlyMemory<byte> Shared, ArrayBufferWriter<byte> After)>? _splices;
    private ArrayBufferWriter<byte> _after = null!;

    /// <summary>The writer of the answer being serialized on this flow, if it splices.</summary>
    public static SplicingWriter? Current
    {
        get => CurrentWriter.Value;
        set => CurrentWriter.Value = value;
    }

    /// <summary>The bytes spliced in so far, sent or not.</summary>
    public long SplicedBytes { get; private set; }

    /// <summary>Whether <paramref name="bytes"/> is a shared file, which this writer would splice.</summary>
    public bool Shares(byte[] bytes) => answers.Shares(bytes);

    /// <summary>Whether spliced bytes wait for the next flush.</summary>
    public bool HasSplices => _splices is { Count: > 0 };

    /// <summary>
    /// Writes <paramref name="file"/> as a base64 JSON string by reference when it is a shared file, closing
    /// <paramref name="json"/>'s buffer around the splice; false (nothing written) when it is not.
    /// </summary>
    public bool TryWriteBase64(Utf8JsonWriter json, byte[] file)
    {
        if (!answers.Shares(file))
        {
            return false;
        }

        json.WriteBase64StringSegment(ReadOnlySpan<byte>.Empty, isFinalSegment: false);
        json.Flush();
        Splice(answers.Base64(file));
        json.WriteBase64StringSegment(ReadOnlySpan<byte>.Empty, isFinalSegment: true);
        return true;
    }

    /// <summary>Places <paramref name="bytes"/> after everything written so far by reference when they are a shared file, whole; false (nothing written) when not.</summary>
    public bool TrySplice(ReadOnlyMemory<byte> bytes)
    {
        if (!MemoryMarshal.TryGetArray(bytes, out var segment) || segment.Offset != 0 || segment.Count != segment.Array!.Length
            || !answers.Shares(segment.Array))
        {
            return false;
        }

        Splice(bytes);
        return true;
    }

    /// <summary>Places <paramref name="shared"/> after everything written so far, without copying it.</summary>
    public void Splice(ReadOnlyMemory<byte> shared)
    {
        if (_splices is null)
        {
            _splices = new Queue<(ReadOnlyMemory<byte>, ArrayBufferWriter<byte>)>();
            SharedAnswers.StopRequestTimeout(http);
        }

        SplicedBytes += shared.Length;
        _after = new ArrayBufferWriter<byte>(256);
        _splices.Enqueue((shared, _after));
    }

    public override Memory<byte> GetMemory(int sizeHint = 0) => HasSplices ? _after.GetMemory(sizeHint) : Inner.GetMemory(sizeHint);

    public override Span<byte> GetSpan(int sizeHint = 0) => HasSplices ? _after.GetSpan(sizeHint) : Inner.GetSpan(sizeHint);

    public override void Advance(int bytes)
    {
        if (HasSplices)
        {
            _after.Advance(bytes);
        }
        else
        {
            Inner.Advance(bytes);
        }
    }

    public override long UnflushedBytes => Inner.UnflushedBytes + (_splices?.Sum(s => (long)s.Shared.Length + s.After.WrittenCount) ?? 0);

    public override async ValueTask<FlushResult> FlushAsync(CancellationToken cancellationToken = default)
    {
        while (_splices is not null && _splices.TryDequeue(out var splice))
        {
            var result = await answers.WriteAsync(Inner, splice.Shared, cancellationToken);
            if (!result.IsCompleted && !result.IsCanceled)
            {
                result = await Inner.WriteAsync(splice.After.WrittenMemory, cancellationToken);
            }

            if (result.IsCompleted || result.IsCanceled)
            {
                _splices.Clear();
                return result;
            }
        }

        return await Inner.FlushAsync(cancellationToken);
    }

    /// <summary>Ends the body: spliced bytes not yet flushed are dropped (a connection that ends mid-answer, say).</summary>
    public override void Complete(Exception? exception = null)
    {
        _splices?.Clear();
        Inner.Complete(exception);
    }

    public override ValueTask CompleteAsync(Exception? exception = null)
    {
        _splices?.Clear();
        return Inner.CompleteAsync(exception);
    }
}
