namespace ProtocolBench.Integration.Tests.Infrastructure;

/// <summary>
/// Clients that read at a set pace: their sockets have an 8 KiB receive buffer, so the kernel takes no more than the
/// client reads, and their reads are held to the pace for a while, then go as fast as they can, so that a test need not
/// wait for a whole answer at the pace.
/// </summary>
public static class PacedReading
{
    private const int ReceiveBufferBytes = 8 * 1024;

    /// <summary>A handler whose connections read at <paramref name="bytesPerSecond"/> for <paramref name="paced"/>, then at full speed.</summary>
    public static SocketsHttpHandler Handler(long bytesPerSecond, TimeSpan paced) => new()
    {
        ConnectCallback = async (context, cancellationToken) =>
        {
            var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { ReceiveBufferSize = ReceiveBufferBytes, NoDelay = true };
            try
            {
                await socket.ConnectAsync(context.DnsEndPoint, cancellationToken);
                return new PacedStream(new NetworkStream(socket, ownsSocket: true), bytesPerSecond, paced);
            }
            catch
            {
                socket.Dispose();
                throw;
            }
        },
    };

    /// <summary>A stream whose reads take at most <paramref name="bytesPerSecond"/>, a tenth of a second's worth at a time, for <paramref name="paced"/>.</summary>
    private sealed class PacedStream(Stream inner, long bytesPerSecond, TimeSpan paced) : PassThroughStream(inner)
    {
        private readonly int _piece = (int)Math.Max(1, bytesPerSecond / 10);
        private Stopwatch? _since;
        private long _taken;

        public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
        {
            _since ??= Stopwatch.StartNew();
            if (_since.Elapsed < paced)
            {
                var due = TimeSpan.FromSeconds((double)_taken / bytesPerSecond) - _since.Elapsed;
                if (due > TimeSpan.Zero)
                {
                    await Task.Delay(due, cancellationToken);
                }

                buffer = buffer[..Math.Min(buffer.Length, _piece)];
            }

            var read = await Inner.ReadAsync(buffer, cancellationToken);
            _taken += read;
            return read;
        }

        public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
            ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

        public override int Read(byte[] buffer, int offset, int count) => ReadAsync(buffer, offset, count).GetAwaiter().GetResult();
    }
}
