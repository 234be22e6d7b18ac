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
