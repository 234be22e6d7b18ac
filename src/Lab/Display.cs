namespace ProtocolBench.Lab;

/// <summary>How protocols and transports are named and coloured in every report, chart and console line.</summary>
public static class Display
{
    public static readonly IReadOnlyList<Protocol> Protocols = [Protocol.Rest, Protocol.Grpc, Protocol.GraphQL, Protocol.SignalR, Protocol.SignalRMessagePack];

    public static readonly IReadOnlyList<Transport> Transports = [Transport.Http, Transport.Https];

    /// <summary>Report columns: every protocol on HTTP, then every protocol on HTTPS.</summary>
    public static IEnumerable<(Protocol Protocol, Transport Transport)> Columns() =>
        Transports.SelectMany(t => Protocols.Select(p => (p, t)));

    public static string Of(Protocol protocol) => protocol switch
    {
        Protocol.Rest => "REST",
        Protocol.Grpc => "gRPC",
        Protocol.GraphQL => "GraphQL",
        Protocol.SignalR => "SignalR",
        _ => "SignalR MessagePack",
    };

    /// <summary>The longest protocol name, to line console columns up.</summary>
    public static int NameWidth { get; } = Protocols.Max(p => Of(p).Length);

    public static string Of(Transport transport) => transport == Transport.Http ? "HTTP" : "HTTPS";

    public static string Of(Protocol protocol, Transport transport) => $"{Of(protocol)} {Of(transport)}";

    /// <summary>One colour per protocol (the matplotlib palette); HTTPS is drawn paler or dashed.</summary>
    public static string Colour(Protocol protocol) => protocol switch
    {
        Protocol.Rest => "#1f77b4",
        Protocol.Grpc => "#2ca02c",
        Protocol.GraphQL => "#d62728",
        Protocol.SignalR => "#9467bd",
        _ => "#8c564b",
    };
}
