using System.Net;
using System.Net.Sockets;

namespace ProtocolBench.Shared.Clients;

/// <summary>Builds the one kind of HTTP handler every client uses: pooled connections, counted bytes, exact trust.</summary>
public static class ClientHandlers
{
    public static SocketsHttpHandler Create(ClientOptions options, WireCounter counter)
    {
        var handler = new SocketsHttpHandler
        {
            PooledConnectionLifetime = Timeout.InfiniteTimeSpan,
            PooledConnectionIdleTimeout = TimeSpan.FromMinutes(5),
            MaxConnectionsPerServer = options.MaxConnectionsPerServer,
            EnableMultipleHttp2Connections = true,
            ConnectTimeout = options.ConnectTimeout,
            AutomaticDecompression = DecompressionMethods.None,
            UseCookies = false,
            UseProxy = false,
            ConnectCallback = (context, cancellationToken) => ConnectCountedAsync(context, counter, cancellationToken),
        };
        handler.SslOptions = TlsTrust.Only(options.LoadTrustedCertificate());
        return handler;
    }

    private static async ValueTask<Stream> ConnectCountedAsync(
        SocketsHttpConnectionContext context, WireCounter counter, CancellationToken cancellationToken)
    {
        var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        try
        {
            await socket.ConnectAsync(context.DnsEndPoint, cancellationToken);
            return new CountingStream(new NetworkStream(socket, ownsSocket: true), counter);
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }
}
