using System.Security.Cryptography.X509Certificates;

namespace ProtocolBench.Shared.Clients;

public sealed record ClientOptions
{
    public ServiceAddresses Addresses { get; init; } = new();

    /// <summary>The project certificate's public part (certs/protocolbench.crt by default). The only certificate trusted.</summary>
    public string? TrustedCertificatePath { get; init; }

    /// <summary>A pre-loaded certificate to trust instead of the file (tests use it to present a different one).</summary>
    public X509Certificate2? TrustedCertificate { get; init; }

    /// <summary>Timeout (HTTP) or deadline (gRPC) of every call.</summary>
    public TimeSpan CallTimeout { get; init; } = TimeSpan.FromSeconds(30);

    public TimeSpan ConnectTimeout { get; init; } = TimeSpan.FromSeconds(15);

    /// <summary>HTTP/1.1 connections per server; the load tests raise it to the number of virtual users.</summary>
    public int MaxConnectionsPerServer { get; init; } = 64;

    /// <summary>gRPC receive limit, set explicitly: the 3.4 MiB PDF with room to spare.</summary>
    public int GrpcMaxReceiveMessageSize { get; init; } = 16 * 1024 * 1024;

    /// <summary>Reuse warm connections (the default) or open a new one, with its TLS handshake, for every request.</summary>
    public ConnectionPolicy Connections { get; init; } = ConnectionPolicy.Reuse;

    /// <summary>Whether responses (and gRPC requests) travel compressed; the services compress only when started to (Compression:Enabled).</summary>
    public Compression Compression { get; init; } = Compression.None;

    /// <summary>Use HTTP/2 for REST and GraphQL over HTTPS (ALPN h2) instead of HTTP/1.1. The default matches the papers: HTTP/1.1.</summary>
    public bool HttpsUsesHttp2ForRestAndGraphQL { get; init; }

    public X509Certificate2 LoadTrustedCertificate() =>
        TrustedCertificate ?? TlsTrust.Load(TrustedCertificatePath);
}
