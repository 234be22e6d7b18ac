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
