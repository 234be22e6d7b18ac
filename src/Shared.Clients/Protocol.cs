namespace ProtocolBench.Shared.Clients;

/// <summary>
/// What a client speaks to a service, one report column each. SignalR is measured with both its hub protocols, JSON
/// and MessagePack: two columns, one service.
/// </summary>
public enum Protocol
{
    Rest,
    Grpc,
    GraphQL,
    SignalR,
    SignalRMessagePack,
}

public enum Transport
{
    Http,
    Https,
}

public static class ProtocolExtensions
{
    /// <summary>The protocol whose service answers this one: SignalR's for both hub protocols, otherwise its own.</summary>
    public static Protocol Service(this Protocol protocol) =>
        protocol == Protocol.SignalRMessagePack ? Protocol.SignalR : protocol;
}
