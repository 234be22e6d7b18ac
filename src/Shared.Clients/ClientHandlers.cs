using System.Net;
using System.Net.Security;
using System.Net.Sockets;

namespace ProtocolBench.Shared.Clients;

/// <summary>
/// Builds the one kind of HTTP handler every client uses: counted bytes and connections, exact trust, and the connection
/// policy: pooled warm connections, or a new connection for every request.
/// </summary>
public static class ClientHandlers
{
    public static HttpMessageHandler Create(ClientOptions options, WireCounter counter)
    {
        var tls = TlsTrust.Only(options.LoadTrustedCertificate());
        return options.Connections == ConnectionPolicy.New
            ? new ConnectionPerRequestHandler(() => Pooled(options, tls, counter))
            : Pooled(options, tls, counter);
    }

    private static SocketsHttpHandler Pooled(ClientOptions options, SslClientAuthenticationOptions tls, WireCounter counter) => new()
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
        SslOptions = tls,
    };

    private static async ValueTask<Stream> ConnectCountedAsync(
        SocketsHttpConnectionContext context, WireCounter counter, CancellationToken cancellationToken)
    {
        var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        try
        {
            await socket.ConnectAsync(context.DnsEndPoint, cancellationToken);
            counter.AddConnection();
            return new CountingStream(new NetworkStream(socket, ownsSocket: true), counter);
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }
}
