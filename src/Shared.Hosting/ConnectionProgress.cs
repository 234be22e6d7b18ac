using System.IO.Pipelines;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace ProtocolBench.Shared.Hosting;

/// <summary>
/// The bytes a connection has handed to its transport, counted as they are written (no copy): on HTTPS above TLS, so the
/// count is the HTTP bytes. A connection whose reader stops reading stops growing it: on HTTP/1.1 once the socket's
/// buffers are full, on HTTP/2 as soon as no stream has flow-control window left. The <see cref="ResponseBudget"/> reads
/// it to tell a reservation whose reader reads from one whose reader does not. A connection feature, so every request
/// and HTTP/2 stream on the connection sees it.
/// </summary>
public sealed class ConnectionProgress
{
    private long _bytesWritten;

    public long BytesWritten => Interlocked.Read(ref _bytesWritten);

    /// <summary>How many <see cref="ResponseBudget"/> reservations the connection's requests hold; read and written under the budget's lock.</summary>
    internal int Reservations { get; set; }

    private void Add(long bytes) => Interlocked.Add(ref _bytesWritten, bytes);

    /// <summary>Counts every connection of this endpoint; on HTTPS, call it after <c>UseHttps</c>.</summary>
    public static void Count(ListenOptions listen) => listen.Use(next => connection =>
    {
        var progress = new ConnectionProgress();
        connection.Features.Set(progress);
        connection.Transport = new CountedPipe(connection.Transport, progress);
        return next(connection);
    });

    private sealed class CountedPipe(IDuplexPipe inner, ConnectionProgress progress) : IDuplexPipe
    {
        public PipeReader Input => inner.Input;

        public PipeWriter Output { get; } = new CountedWriter(inner.Output, progress);
    }

    private sealed class CountedWriter(PipeWriter inner, ConnectionProgress progress) : PipeWriterDecorator(inner)
    {
        public override void Advance(int bytes)
        {
            progress.Add(bytes);
            Inner.Advance(bytes);
        }

        public override ValueTask<FlushResult> WriteAsync(ReadOnlyMemory<byte> source, CancellationToken cancellationToken = default)
        {
            progress.Add(source.Length);
            return Inner.WriteAsync(source, cancellationToken);
        }
    }
}
