using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace ProtocolBench.Shared.Hosting;

/// <summary>Bound from "Endpoints": where a service listens. Defaults per service live in its appsettings.json.</summary>
public sealed class EndpointOptions
{
    public const string Section = "Endpoints";

    /// <summary>127.0.0.1 by default; set to 0.0.0.0 (or an interface address) to serve a client on another machine.</summary>
    public string Address { get; set; } = "127.0.0.1";

    public int HttpPort { get; set; }

    public int HttpsPort { get; set; }

    /// <summary>Http1 for REST and GraphQL, Http2 (prior knowledge, h2c) for gRPC. HTTPS always offers h2 and http/1.1 by ALPN.</summary>
    public HttpProtocols CleartextProtocols { get; set; } = HttpProtocols.Http1;

    /// <summary>
    /// The port of the loopback sender (<see cref="LoopbackSender"/>): unset, none; 0, any free port, announced in the
    /// ready line. The benchmark command asks the REST service for one.
    /// </summary>
    public int? SenderPort { get; set; }
}

/// <summary>Bound from "Certificate".</summary>
public sealed class CertificateOptions
{
    public const string Section = "Certificate";

    /// <summary>The server .pfx; empty means certs/protocolbench.pfx in the repository.</summary>
    public string? Path { get; set; }
}

/// <summary>
/// Bound from "Compression": off by default, so that an answer is the same bytes whatever the client sends. On
/// (--Compression:Enabled=true, which the commands pass for --compression gzip|br), REST and GraphQL compress their JSON
/// responses with gzip or br as the request's Accept-Encoding asks, over HTTPS too, and gRPC compresses its replies with
/// gzip when the call accepts it; all at the "optimal" level (gzip 6, Brotli 4).
/// </summary>
public sealed class CompressionOptions
{
    public const string Section = "Compression";

    public bool Enabled { get; set; }

    public static bool IsEnabled(IConfiguration configuration) => configuration.GetValue<bool>($"{Section}:{nameof(Enabled)}");
}
