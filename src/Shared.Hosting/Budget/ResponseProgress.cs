using Microsoft.AspNetCore.Http.Features;

namespace ProtocolBench.Shared.Hosting.Budget;

/// <summary>
/// Whether one response's own writes move: since when its pending write or flush has waited for its reader, and for how
/// many bytes, if one waits.
/// <see cref="ConnectionProgress"/> cannot tell an HTTP/2 stream whose reader opens it no window from one that reads while
/// another stream of the same connection reads; this can. Installed by the <see cref="ResponseBudget"/> on the requests
/// that hold a reservation only, before their answer is written, as their response body (its writer and its stream, each
/// handing every call to Kestrel's own), so the requests that hold none pay nothing.
/// </summary>
internal sealed class ResponseProgress : IHttpResponseBodyFeature
{
    private readonly IHttpResponseBodyFeature _inner;
    private long _waitingSince;
    private long _waitingFor;

    private ResponseProgress(IHttpResponseBodyFeature inner)
    {
        _inner = inner;
        Writer = new WatchedWriter(inner.Writer, this);
        Stream = new WatchedStream(inner.Stream, this);
    }

    /// <summary>
    /// Whether a write has waited for its reader at least <paramref name="atLeast"/>, and at least as long as its bytes take
    /// at <paramref name="bytesPerSecond"/>, at <paramref name="now"/> (<see cref="Environment.TickCount64"/>); how long.
    /// </summary>
    public bool HasWaited(long now, TimeSpan atLeast, long bytesPerSecond, out long waitedMs)
    {
        var since = Interlocked.Read(ref _waitingSince);
        waitedMs = since == 0 ? 0 : now - since;
        return since != 0 && waitedMs >= Math.Max(atLeast.TotalMilliseconds, Interlocked.Read(ref _waitingFor) * 1000.0 / bytesPerSecond);
    }

    public Stream Stream { get; }

    public PipeWriter Writer { get; }

    public static ResponseProgress Watch(HttpContext http)
    {
        var progress = new ResponseProgress(http.Features.GetRequiredFeature<IHttpResponseBodyFeature>());
        http.Features.Set<IHttpResponseBodyFeature>(progress);
        return progress;
    }

    public void DisableBuffering() => _inner.DisableBuffering();

    public Task StartAsync(CancellationToken cancellationToken = default) => _inner.StartAsync(cancellationToken);

    public Task SendFileAsync(string path, long offset, long? count, CancellationToken cancellationToken = default) =>
        Watched(_inner.SendFileAsync(path, offset, count, cancellationToken), count ?? 0);

    public Task CompleteAsync() => _inner.CompleteAsync();

    /// <summary>
    /// A write of <paramref name="bytes"/> that completes at once costs one check; one that waits for its reader is timed
    /// while it waits.
    /// </summary>
    private ValueTask<T> Watched<T>(ValueTask<T> write, long bytes) => write.IsCompleted ? write : WaitAsync(write, bytes);

    private ValueTask Watched(ValueTask write, long bytes) => write.IsCompleted ? write : new ValueTask(WaitAsync(write.AsTask(), bytes));

    private Task Watched(Task write, long bytes) => write.IsCompleted ? write : WaitAsync(write, bytes);

    private async ValueTask<T> WaitAsync<T>(ValueTask<T> write, long bytes)
    {
        Waiting(bytes);
        try
        {
            return await write;
        }
        finally
        {
            Interlocked.Exchange(ref _waitingSince, 0);
        }
    }

    private async Task WaitAsync(Task write, long bytes)
    {
        Waiting(bytes);
        try
        {
            await write;
        }
        finally
        {
            Interlocked.Exchange(ref _waitingSince, 0);
        }
    }

    private void Waiting(long bytes)
    {
        Interlocked.Exchange(ref _waitingFor, bytes);
        Interlocked.Exchange(ref _waitingSince, Environment.TickCount64);
    }

    private sealed class WatchedWriter(PipeWriter inner, ResponseProgress progress) : PipeWriter
    {
        public override ValueTask<FlushResult> FlushAsync(CancellationToken cancellationToken = default)
        {
            var bytes = Unflushed;
            return progress.Watched(inner.FlushAsync(cancellationToken), bytes);
        }

        public override ValueTask<FlushResult> WriteAsync(ReadOnlyMemory<byte> source, CancellationToken cancellationToken = default)
        {
            var bytes = Unflushed + source.Length;
            return progress.Watched(inner.WriteAsync(source, cancellationToken), bytes);
        }

        private long Unflushed => inner.CanGetUnflushedBytes ? inner.UnflushedBytes : 0;

        public override void Advance(int bytes) => inner.Advance(bytes);

        public override Memory<byte> GetMemory(int sizeHint = 0) => inner.GetMemory(sizeHint);

        public override Span<byte> GetSpan(int sizeHint = 0) => inner.GetSpan(sizeHint);

        public override void CancelPendingFlush() => inner.CancelPendingFlush();

        public override void Complete(Exception? exception = null) => inner.Complete(exception);

        public override ValueTask CompleteAsync(Exception? exception = null) => inner.CompleteAsync(exception);

        public override bool CanGetUnflushedBytes => inner.CanGetUnflushedBytes;

        public override long UnflushedBytes => inner.UnflushedBytes;
    }

    /// <summary>Kestrel's response stream, its asynchronous writes timed; everything else is its own (a synchronous write still throws unless allowed).</summary>
    private sealed class WatchedStream(Stream inner, ResponseProgress progress) : Stream
    {
        public override bool CanRead => inner.CanRead;

        public override bool CanSeek => inner.CanSeek;

        public override bool CanWrite => inner.CanWrite;

        public override long Length => inner.Length;

        public override long Position { get => inner.Position; set => inner.Position = value; }

        public override ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default) =>
            progress.Watched(inner.WriteAsync(buffer, cancellationToken), buffer.Length);

        public override Task WriteAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
            progress.Watched(inner.WriteAsync(buffer, offset, count, cancellationToken), count);

        public override Task FlushAsync(CancellationToken cancellationToken) => progress.Watched(inner.FlushAsync(cancellationToken), 0);

        public override void Write(byte[] buffer, int offset, int count) => inner.Write(buffer, offset, count);

        public override void Write(ReadOnlySpan<byte> buffer) => inner.Write(buffer);

        public override void Flush() => inner.Flush();

        public override int Read(byte[] buffer, int offset, int count) => inner.Read(buffer, offset, count);

        public override long Seek(long offset, SeekOrigin origin) => inner.Seek(offset, origin);

        public override void SetLength(long value) => inner.SetLength(value);
    }
}
