using System.Buffers.Binary;
using System.Net.Security;
using System.Security.Cryptography.X509Certificates;

namespace ProtocolBench.Integration.Tests.Infrastructure;

/// <summary>
/// An HTTP/2 client that asks and never reads: its SETTINGS set the initial stream window to 0 and it sends no WINDOW_UPDATE
/// for its stalled streams, so the server can send them no body byte; one stream may read, slowly, so that the connection
/// keeps sending. Written by hand because HttpClient's smallest window is 64 KiB.
/// Frames: RFC 9113; header blocks are HPACK literals without indexing or Huffman coding (RFC 7541 §6.2.2).
/// </summary>
public sealed class StalledHttp2Reader : IAsyncDisposable
{
    private readonly TcpClient _tcp;
    private readonly Stream _stream;
    private readonly SemaphoreSlim _writeLock = new(1, 1);
    private readonly Task _frames;
    private readonly TaskCompletionSource _closedByServer = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly TaskCompletionSource _streamsEnded = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private int _opened;
    private int _ended;
    private int _streams;
    private int _reading;
    private long _read;

    private StalledHttp2Reader(TcpClient tcp, Stream stream)
    {
        _tcp = tcp;
        _stream = stream;
        _frames = Task.Run(ReadAsync);
    }

    /// <summary>The body bytes the reading stream has received.</summary>
    public long BytesRead => Interlocked.Read(ref _read);

    /// <summary>Completes when the server ends the connection (GOAWAY or close).</summary>
    public Task ClosedByServer => _closedByServer.Task;

    /// <summary>Completes when the server has ended every stream opened so far (RST_STREAM or END_STREAM), or the connection.</summary>
    public Task StreamsEnded => _streamsEnded.Task;

    public static async Task<StalledHttp2Reader> ConnectAsync(Uri baseUri, X509Certificate2 trusted, CancellationToken cancellationToken)
    {
        var tcp = new TcpClient();
        await tcp.ConnectAsync(baseUri.Host, baseUri.Port, cancellationToken);
        Stream stream = tcp.GetStream();
        if (baseUri.Scheme == Uri.UriSchemeHttps)
        {
            var tls = new SslStream(stream);
            var options = TlsTrust.Only(trusted);
            options.TargetHost = baseUri.Host;
            options.ApplicationProtocols = [SslApplicationProtocol.Http2];
            await tls.AuthenticateAsClientAsync(options, cancellationToken);
            stream = tls;
        }

        await stream.WriteAsync("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"u8.ToArray(), cancellationToken);
        // SETTINGS: SETTINGS_INITIAL_WINDOW_SIZE (0x4) = 0.
        await WriteFrameAsync(stream, type: 0x4, flags: 0, streamId: 0, [0x00, 0x04, 0x00, 0x00, 0x00, 0x00], cancellationToken);
        return new StalledHttp2Reader(tcp, stream);
    }

    /// <summary>Opens streams 1, 3, 5, … each asking for <paramref name="path"/>; a body, when given, is sent whole.</summary>
    public Task RequestAsync(int streams, string method, Uri baseUri, string path, IReadOnlyList<(string Name, string Value)> headers, byte[]? body, CancellationToken cancellationToken) =>
        OpenAsync(streams, method, baseUri, path, headers, body, cancellationToken);

    /// <summary>
    /// Opens one stream that reads <paramref name="bytesPerTenthOfASecond"/> every 100 ms, granting that much window to it and
    /// to the connection, until the reader is disposed; it is not counted among the streams <see cref="StreamsEnded"/> waits for.
    /// </summary>
    public async Task ReadSlowlyAsync(int bytesPerTenthOfASecond, string method, Uri baseUri, string path, IReadOnlyList<(string Name, string Value)> headers, byte[]? body, CancellationToken cancellationToken)
    {
        var id = await OpenAsync(1, method, baseUri, path, headers, body, cancellationToken);
        Interlocked.Decrement(ref _opened);
        Volatile.Write(ref _reading, id);
        _ = Task.Run(async () =>
        {
            var increment = new byte[4];
            BinaryPrimitives.WriteInt32BigEndian(increment, bytesPerTenthOfASecond);
            using var timer = new PeriodicTimer(TimeSpan.FromMilliseconds(100));
            try
            {
                while (await timer.WaitForNextTickAsync(cancellationToken) && !_frames.IsCompleted)
                {
                    await _writeLock.WaitAsync(cancellationToken);
                    try
                    {
                        await WriteFrameAsync(_stream, type: 0x8, flags: 0, streamId: id, increment, cancellationToken);
                        await WriteFrameAsync(_stream, type: 0x8, flags: 0, streamId: 0, increment, cancellationToken);
                    }
                    finally
                    {
                        _writeLock.Release();
                    }
                }
            }
            catch (Exception e) when (e is IOException or ObjectDisposedException or OperationCanceledException or SocketException)
            {
            }
        }, CancellationToken.None);
    }

    /// <summary>Opens <paramref name="streams"/> streams; returns the last one's id.</summary>
    private async Task<int> OpenAsync(int streams, string method, Uri baseUri, string path, IReadOnlyList<(string Name, string Value)> headers, byte[]? body, CancellationToken cancellationToken)
    {
        var id = 0;
        var block = HeaderBlock(
        [
            (":method", method), (":scheme", baseUri.Scheme), (":authority", baseUri.Authority), (":path", path), .. headers,
        ]);
        for (var i = 0; i < streams; i++)
        {
            id = 1 + (2 * Interlocked.Increment(ref _streams)) - 2;
            Interlocked.Increment(ref _opened);
            await _writeLock.WaitAsync(cancellationToken);
            try
            {
                // HEADERS with END_HEADERS, and END_STREAM when there is no body.
                await WriteFrameAsync(_stream, type: 0x1, flags: (byte)(body is null ? 0x5 : 0x4), id, block, cancellationToken);
                if (body is not null)
                {
                    await WriteFrameAsync(_stream, type: 0x0, flags: 0x1, id, body, cancellationToken);
                }
            }
            finally
            {
                _writeLock.Release();
            }
        }

        return id;
    }

    public async ValueTask DisposeAsync()
    {
        _tcp.Dispose();
        await _frames.ContinueWith(_ => { }, TaskScheduler.Default);
        _writeLock.Dispose();
    }

    /// <summary>Reads frames and drops them, answering SETTINGS and PING as the protocol requires; never a WINDOW_UPDATE.</summary>
    private async Task ReadAsync()
    {
        var header = new byte[9];
        try
        {
            while (true)
            {
                await _stream.ReadExactlyAsync(header);
                var length = (header[0] << 16) | (header[1] << 8) | header[2];
                var payload = new byte[length];
                await _stream.ReadExactlyAsync(payload);
                var (type, flags) = (header[3], header[4]);
                var streamId = BinaryPrimitives.ReadInt32BigEndian(header.AsSpan(5)) & int.MaxValue;
                if (type == 0x7)
                {
                    break; // GOAWAY
                }

                if (streamId != 0 && streamId == Volatile.Read(ref _reading))
                {
                    if (type == 0x0)
                    {
                        Interlocked.Add(ref _read, length);
                    }

                    continue;
                }

                // RST_STREAM, or HEADERS or DATA with END_STREAM: one stream fewer.
                if ((type == 0x3 || ((type == 0x0 || type == 0x1) && (flags & 0x1) != 0)) && Interlocked.Increment(ref _ended) >= Volatile.Read(ref _opened))
                {
                    _streamsEnded.TrySetResult();
                }

                if ((type == 0x4 || type == 0x6) && (flags & 0x1) == 0)
                {
                    await _writeLock.WaitAsync();
                    try
                    {
                        await WriteFrameAsync(_stream, type, flags: 0x1, streamId: 0, type == 0x6 ? payload : [], CancellationToken.None);
                    }
                    finally
                    {
                        _writeLock.Release();
                    }
                }
            }
        }
        catch (Exception e) when (e is IOException or ObjectDisposedException or EndOfStreamException or SocketException)
        {
        }

        _closedByServer.TrySetResult();
        _streamsEnded.TrySetResult();
    }

    private static async Task WriteFrameAsync(Stream stream, byte type, byte flags, int streamId, byte[] payload, CancellationToken cancellationToken)
    {
        var frame = new byte[9 + payload.Length];
        frame[0] = (byte)(payload.Length >> 16);
        frame[1] = (byte)(payload.Length >> 8);
        frame[2] = (byte)payload.Length;
        frame[3] = type;
        frame[4] = flags;
        BinaryPrimitives.WriteInt32BigEndian(frame.AsSpan(5), streamId);
        payload.CopyTo(frame, 9);
        await stream.WriteAsync(frame, cancellationToken);
        await stream.FlushAsync(cancellationToken);
    }

    private static byte[] HeaderBlock(IEnumerable<(string Name, string Value)> headers)
    {
        var block = new List<byte>();
        foreach (var (name, value) in headers)
        {
            block.Add(0x00);
            Literal(block, name);
            Literal(block, value);
        }

        return [.. block];
    }

    /// <summary>A string literal: its length as an HPACK integer with a 7-bit prefix, then its bytes.</summary>
    private static void Literal(List<byte> block, string text)
    {
        var bytes = Encoding.ASCII.GetBytes(text);
        var length = bytes.Length;
        if (length < 127)
        {
            block.Add((byte)length);
        }
        else
        {
            block.Add(127);
            for (length -= 127; length >= 128; length >>= 7)
            {
                block.Add((byte)((length & 0x7F) | 0x80));
            }

            block.Add((byte)length);
        }

        block.AddRange(bytes);
    }
}
