namespace ProtocolBench.Shared.Clients;

/// <summary>Bytes sent and received on the client's sockets: plaintext on HTTP, TLS records on HTTPS.</summary>
public sealed class WireCounter
{
    private long _sent;
    private long _received;
    private long _connections;
    private Hook? _hook;

    public long Sent => Interlocked.Read(ref _sent);

    public long Received => Interlocked.Read(ref _received);

    public long Total => Sent + Received;

    /// <summary>Connections opened (TCP connects) since the last <see cref="Reset"/>.</summary>
    public long Connections => Interlocked.Read(ref _connections);

    public void AddConnection() => Interlocked.Increment(ref _connections);

    public void AddSent(long bytes) => Interlocked.Add(ref _sent, bytes);

    public void AddReceived(long bytes)
    {
        var total = Interlocked.Add(ref _received, bytes);
        if (Volatile.Read(ref _hook) is { } hook && total >= hook.AtLeast && Interlocked.CompareExchange(ref _hook, null, hook) == hook)
        {
            hook.Action();
        }
    }

    /// <summary>
    /// Runs <paramref name="action"/> once, on the thread that reads from the socket, as soon as the bytes received reach
    /// <paramref name="atLeast"/>: a test cancels a download truly midway with it, with no other thread to wait for.
    /// </summary>
    public void WhenReceived(long atLeast, Action action) => Volatile.Write(ref _hook, new Hook(atLeast, action));

    public void Reset()
    {
        Interlocked.Exchange(ref _sent, 0);
        Interlocked.Exchange(ref _received, 0);
        Interlocked.Exchange(ref _connections, 0);
    }

    public (long Sent, long Received) Snapshot() => (Sent, Received);

    private sealed record Hook(long AtLeast, Action Action);
}

internal sealed class CountingStream(Stream inner, WireCounter counter) : Stream
{
    public override bool CanRead => inner.CanRead;

    public override bool CanSeek => false;

    public override bool CanWrite => inner.CanWrite;

    public override long Length => throw new NotSupportedException();

    public override long Position
    {
        get => throw new NotSupportedException();
        set => throw new NotSupportedException();
    }

    public override int Read(byte[] buffer, int offset, int count) => Counted(inner.Read(buffer, offset, count));

    public override int Read(Span<byte> buffer) => Counted(inner.Read(buffer));

    public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default) =>
        Counted(await inner.ReadAsync(buffer, cancellationToken));

    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    public override void Write(byte[] buffer, int offset, int count)
    {
        inner.Write(buffer, offset, count);
        counter.AddSent(count);
    }

    public override void Write(ReadOnlySpan<byte> buffer)
    {
        inner.Write(buffer);
        counter.AddSent(buffer.Length);
    }

    public override async ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default)
    {
        await inner.WriteAsync(buffer, cancellationToken);
        counter.AddSent(buffer.Length);
    }

    public override Task WriteAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        WriteAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    public override void Flush() => inner.Flush();

    public override Task FlushAsync(CancellationToken cancellationToken) => inner.FlushAsync(cancellationToken);

    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    public override void SetLength(long value) => throw new NotSupportedException();

    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            inner.Dispose();
        }

        base.Dispose(disposing);
    }

    public override ValueTask DisposeAsync() => inner.DisposeAsync();

    private int Counted(int read)
    {
        counter.AddReceived(read);
        return read;
    }
}
