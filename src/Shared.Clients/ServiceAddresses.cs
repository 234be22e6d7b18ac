namespace ProtocolBench.Shared.Clients;

/// <summary>Where the four services are, and how every client behaves.</summary>
public sealed record ServiceAddresses(
    string Host = "127.0.0.1",
    int RestHttp = 5100,
    int RestHttps = 5101,
    int GrpcHttp = 5200,
    int GrpcHttps = 5201,
    int GraphQLHttp = 5300,
    int GraphQLHttps = 5301,
    int SignalRHttp = 5400,
    int SignalRHttps = 5401)
{
    /// <summary>
    /// Every port 0: each service started with these binds any free port and reports it in its ready line, so no two runs
    /// or tests can collide over a port picked in advance. The launcher's <c>RunningServices.Addresses</c> has the ports bound.
    /// </summary>
    public static ServiceAddresses AnyFree { get; } = new(RestHttp: 0, RestHttps: 0, GrpcHttp: 0, GrpcHttps: 0, GraphQLHttp: 0, GraphQLHttps: 0, SignalRHttp: 0, SignalRHttps: 0);

    /// <summary>Whether some port is still to be chosen by the kernel (0).</summary>
    public bool HasAnyFreePort => All.Contains(0);

    private int[] All => [RestHttp, RestHttps, GrpcHttp, GrpcHttps, GraphQLHttp, GraphQLHttps, SignalRHttp, SignalRHttps];

    /// <summary>
    /// Eight ports as the commands take them (--ports): REST http,https, gRPC http,https, GraphQL http,https, SignalR
    /// http,https; or "auto" for
    /// <see cref="AnyFree"/>. Throws <see cref="FormatException"/> with a message for the user.
    /// </summary>
    public static ServiceAddresses ParsePorts(string list)
    {
        if (list.Trim().Equals("auto", StringComparison.OrdinalIgnoreCase))
        {
            return AnyFree;
        }

        var ports = list.Split(',').Select(p => int.TryParse(p.Trim(), out var n) && n is > 0 and < 65536
            ? n
            : throw new FormatException($"--ports: '{p}' is not a port.")).ToArray();
        return ports.Length == 8 && ports.Distinct().Count() == 8
            ? new ServiceAddresses(
                RestHttp: ports[0], RestHttps: ports[1], GrpcHttp: ports[2], GrpcHttps: ports[3],
                GraphQLHttp: ports[4], GraphQLHttps: ports[5], SignalRHttp: ports[6], SignalRHttps: ports[7])
            : throw new FormatException(
                "--ports takes eight different ports (REST http,https, gRPC http,https, GraphQL http,https, SignalR http,https) or auto.");
    }

    /// <summary>The eight ports as --ports takes them (help texts show defaults by their text).</summary>
    public override string ToString() => string.Join(',', All);

    /// <summary>Host name used for HTTPS; must be in the certificate (localhost, 127.0.0.1 or ::1).</summary>
    public string TlsHost { get; init; } = "localhost";

    /// <summary>
    /// The REST service's loopback sender (a plain TCP socket that sends the payload files' bytes: the benchmark's
    /// loopback transfer), on <see cref="Host"/>; null when there is none (services started elsewhere, --external).
    /// Not one of the eight ports: the command asks for any free one and reads it from the service's ready line.
    /// </summary>
    public int? SenderPort { get; init; }

    public (int Http, int Https) Ports(Protocol protocol) => protocol switch
    {
        Protocol.Rest => (RestHttp, RestHttps),
        Protocol.Grpc => (GrpcHttp, GrpcHttps),
        Protocol.GraphQL => (GraphQLHttp, GraphQLHttps),
        _ => (SignalRHttp, SignalRHttps),
    };

    /// <summary>These addresses with <paramref name="protocol"/>'s two ports replaced (by the ones its service bound).</summary>
    public ServiceAddresses WithPorts(Protocol protocol, int http, int https) => protocol switch
    {
        Protocol.Rest => this with { RestHttp = http, RestHttps = https },
        Protocol.Grpc => this with { GrpcHttp = http, GrpcHttps = https },
        Protocol.GraphQL => this with { GraphQLHttp = http, GraphQLHttps = https },
        _ => this with { SignalRHttp = http, SignalRHttps = https },
    };

    public Uri BaseUri(Protocol protocol, Transport transport)
    {
        var (http, https) = Ports(protocol);
        return transport == Transport.Http ? new Uri($"http://{Host}:{http}/") : new Uri($"https://{TlsHost}:{https}/");
    }
}
