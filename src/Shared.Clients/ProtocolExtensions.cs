namespace ProtocolBench.Shared.Clients;

public static class ProtocolExtensions
{
    /// <summary>The protocol whose service answers this one: SignalR's for both hub protocols, otherwise its own.</summary>
    public static Protocol Service(this Protocol protocol) =>
        protocol == Protocol.SignalRMessagePack ? Protocol.SignalR : protocol;
}
