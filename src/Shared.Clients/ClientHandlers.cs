using System.Net.Security;
using System.Net.Sockets;

namespace ProtocolBench.Shared.Clients;

/// <summary>
/// Builds the one kind of HTTP handler every client uses: counted bytes and connections, exact trust, the connection
/// policy (pooled warm connections, or a new connection for every request) and the compression asked for.
/// </summary>
public static class ClientHandlers
{
    /// <summary>For REST and GraphQL (and plain HTTP): asks for the compressed response by Accept-Encoding and decompresses it.</summary>
    public static HttpMessageHandler Create(ClientOptions options, WireCounter counter) => Create(options, counter, options.Compression switch
    {
        Compression.Gzip => DecompressionMethods.GZip,
        Compression.Brotli => DecompressionMethods.Brotli,
        _ => DecompressionMethods.None,
    });

    /// <summary>
    /// The HttpClient of REST and GraphQL: the service's base address, the call timeout, and HTTP/1.1, or h2 over HTTPS
    /// with --http2, exactly. Make each request with <see cref="Request"/>, which carries that version.
    /// </summary>
    public static HttpClient CreateHttpClient(Protocol protocol, Transport transport, ClientOptions options, WireCounter counter) =>
        new(Create(options, counter), disposeHandler: true)
        {
            BaseAddress = options.Addresses.BaseUri(protocol, transport),
            Timeout = options.CallTimeout,
            DefaultRequestVersion = transport == Transport.Https && options.HttpsUsesHttp2ForRestAndGraphQL
                ? HttpVersion.Version20
                : HttpVersion.Version11,
            DefaultVersionPolicy = HttpVersionPolicy.RequestVersionExact,
        };

    /// <summary>A request at the client's own HTTP version: HttpClient applies it only to the requests its helpers (GetAsync, …) make.</summary>
    public static HttpRequestMessage Request(this HttpClient http, HttpMethod method, string path, HttpContent? content) =>
        new(method, path) { Version = http.DefaultRequestVersion, VersionPolicy = http.DefaultVersionPolicy, Content = content };

    /// <summary>For gRPC, which compresses its messages itself (grpc-encoding) and never the HTTP body.</summary>
    public static HttpMessageHandler CreateForGrpc(ClientOptions options, WireCounter counter) => Create(options, counter, DecompressionMethods.None);

    /// <summary>
    /// For SignalR's WebSocket: an upgraded connection is never pooled, so each WebSocket has a TCP connection of its own
    /// whatever the policy; the client makes a new WebSocket per call when --connections new asks.
    /// </summary>
    public static HttpMessageHandler CreateForWebSockets(ClientOptions options, WireCounter counter) =>
        Pooled(options, TlsTrust.Only(options.LoadTrustedCertificate()), counter, DecompressionMethods.None);

    private static HttpMessageHandler Create(ClientOptions options, WireCounter counter, DecompressionMethods decompression)
    {
        var tls = TlsTrust.Only(options.LoadTrustedCertificate());
        return options.Connections == ConnectionPolicy.New
            ? new ConnectionPerRequestHandler(() => Pooled(options, tls, counter, decompression))
            : Pooled(options, tls, counter, decompression);
    }

    private static SocketsHttpHandler Pooled(
        ClientOptions options, SslClientAuthenticationOptions tls, WireCounter counter, DecompressionMethods decompression) => new()
        {
            PooledConnectionLifetime = Timeout.InfiniteTimeSpan,
            PooledConnectionIdleTimeout = TimeSpan.FromMinutes(5),
            MaxConnectionsPerServer = options.MaxConnectionsPerServer,
            EnableMultipleHttp2Connections = true,
            ConnectTimeout = options.ConnectTimeout,
            // Below the counting stream, so the bytes counted are the compressed ones.
            AutomaticDecompression = decompression,
            UseCookies = false,
            UseProxy = false,
            ConnectCallback = (context, cancellationToken) => ConnectCountedAsync(options.Addresses.Host, context, counter, cancellationToken),
            SslOptions = tls,
        };

    /// <summary>
    /// Connects to <paramref name="host"/> whatever name the URL has: HTTPS URLs name the certificate's host (localhost,
    /// or --tls-host), which need not resolve to where the services are (another machine, or the namespace of --network).
    /// </summary>
    private static async ValueTask<Stream> ConnectCountedAsync(
        string host, SocketsHttpConnectionContext context, WireCounter counter, CancellationToken cancellationToken)
    {
        var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        try
        {
            await socket.ConnectAsync(new DnsEndPoint(host, context.DnsEndPoint.Port), cancellationToken);
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
