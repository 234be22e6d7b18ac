using System.Net.Sockets;
using System.Runtime.InteropServices;
using Microsoft.AspNetCore.Connections.Features;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace ProtocolBench.Shared.Hosting.Budget;

/// <summary>
/// How far a connection's answers have gone, two ways. <see cref="BytesWritten"/>: the bytes handed to its transport, counted
/// as they are written (no copy), on HTTPS above TLS, so the count is the HTTP bytes; a hub knows where an answer will end
/// in it. <see cref="BytesSent"/>: what the socket has sent and the client's kernel has acknowledged, so what the client
/// takes, however the answer entered the transport (an HTTP/1.1 JSON answer enters it in one write, and the count above
/// then stands still while a client reads it at any pace). The <see cref="ResponseBudget"/> reads both, to tell a reader
/// that reads from one that does not. A connection feature, so every request and HTTP/2 stream on the connection sees it.
/// </summary>
public sealed class ConnectionProgress
{
    // Linux's struct tcp_info (linux/tcp.h): tcpi_bytes_acked, a __u64 at byte 120, present since Linux 4.1; and
    // tcpi_last_data_sent, a __u32 at byte 44: milliseconds since the socket last sent new data.
    private const int SolTcp = 6;
    private const int TcpInfo = 11;
    private const int LastDataSentOffset = 44;
    private const int BytesAckedOffset = 120;
    private const int TcpInfoBytes = 232;

    private readonly Socket? _socket;
    private long _bytesWritten;
    private long _bytesSent;

    private ConnectionProgress(Socket? socket) =>
        _socket = OperatingSystem.IsLinux() && socket is { ProtocolType: ProtocolType.Tcp } ? socket : null;

    public long BytesWritten => Interlocked.Read(ref _bytesWritten);

    /// <summary>The progress of a socket no Kestrel endpoint serves (the loopback sender's): what the kernel says of it.</summary>
    public static ConnectionProgress Of(Socket socket) => new(socket);

    /// <summary>
    /// The bytes the socket has sent and its peer acknowledged, TLS records included (Linux's TCP_INFO), read from the kernel
    /// at each call: the budget's sweep calls it while callers wait, and nothing else does. Where the kernel does not say
    /// (not Linux, not a TCP socket), <see cref="BytesWritten"/>.
    /// </summary>
    public long BytesSent
    {
        get
        {
            if (_socket is null)
            {
                return BytesWritten;
            }

            Span<byte> info = stackalloc byte[TcpInfoBytes];
            if (ReadTcpInfo(info) >= BytesAckedOffset + sizeof(ulong))
            {
                _bytesSent = (long)MemoryMarshal.Read<ulong>(info[BytesAckedOffset..]);
            }

            // Otherwise the connection has ended: it sends no more.
            return _bytesSent;
        }
    }

    /// <summary>
    /// How long ago the socket last sent new data (Linux's TCP_INFO; a window probe to a client that does not read is not
    /// new data), read from the kernel at each call; null where the kernel does not say.
    /// </summary>
    public TimeSpan? SinceDataSent
    {
        get
        {
            Span<byte> info = stackalloc byte[TcpInfoBytes];
            return ReadTcpInfo(info) >= LastDataSentOffset + sizeof(uint)
                ? TimeSpan.FromMilliseconds(MemoryMarshal.Read<uint>(info[LastDataSentOffset..]))
                : null;
        }
    }

    /// <summary>The socket's struct tcp_info into <paramref name="info"/>: the bytes the kernel filled, 0 where it says nothing (no socket, or the connection has ended).</summary>
    private int ReadTcpInfo(Span<byte> info)
    {
        if (_socket is null)
        {
            return 0;
        }

        try
        {
            return _socket.GetRawSocketOption(SolTcp, TcpInfo, info);
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException)
        {
            return 0;
        }
    }

    /// <summary>How many <see cref="ResponseBudget"/> reservations the connection's requests hold; read and written under the budget's lock.</summary>
    internal int Reservations { get; set; }

    private void Add(long bytes) => Interlocked.Add(ref _bytesWritten, bytes);

    /// <summary>
    /// Counts every connection of this endpoint, and its opening and closing in the service's <see cref="ConnectionBursts"/>;
    /// on HTTPS, call it after <c>UseHttps</c>.
    /// </summary>
    public static void Count(ListenOptions listen)
    {
        var bursts = listen.ApplicationServices.GetRequiredService<ConnectionBursts>();
        listen.Use(next => async connection =>
        {
            var progress = new ConnectionProgress(connection.Features.Get<IConnectionSocketFeature>()?.Socket);
            connection.Features.Set(progress);
            connection.Transport = new CountedPipe(connection.Transport, progress);
            bursts.Opened();
            try
            {
                await next(connection);
            }
            finally
            {
                bursts.Closed();
            }
        });
    }

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
