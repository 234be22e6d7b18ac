namespace ProtocolBench.Integration.Tests.Infrastructure;

/// <summary>
/// Connections whose socket's receive buffer is 4 KiB: what the client does not read soon fills the kernel's buffers,
/// and the service's writes stop, as behind a reader that stalls.
/// </summary>
public static class SmallReceiveBuffer
{
    public static SocketsHttpHandler Handler() => new()
    {
        ConnectCallback = async (context, cancellationToken) =>
        {
            var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { ReceiveBufferSize = 4 * 1024, NoDelay = true };
            try
            {
                await socket.ConnectAsync(context.DnsEndPoint, cancellationToken);
                return new NetworkStream(socket, ownsSocket: true);
            }
            catch
            {
                socket.Dispose();
                throw;
            }
        },
    };
}
