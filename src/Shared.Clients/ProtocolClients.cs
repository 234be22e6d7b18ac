namespace ProtocolBench.Shared.Clients;

public static class ProtocolClients
{
    public static readonly IReadOnlyList<(Protocol Protocol, Transport Transport)> AllCombinations =
    [
        (Protocol.Rest, Transport.Http), (Protocol.Rest, Transport.Https),
        (Protocol.Grpc, Transport.Http), (Protocol.Grpc, Transport.Https),
        (Protocol.GraphQL, Transport.Http), (Protocol.GraphQL, Transport.Https),
        (Protocol.SignalR, Transport.Http), (Protocol.SignalR, Transport.Https),
        (Protocol.SignalRMessagePack, Transport.Http), (Protocol.SignalRMessagePack, Transport.Https),
    ];

    /// <summary>"search Author - 100 over gRPC on HTTPS": one factory for benchmarks, load tests and tests.</summary>
    public static IProtocolClient Create(Protocol protocol, Transport transport, ClientOptions options) => protocol switch
    {
        Protocol.Rest => new RestProtocolClient(transport, options),
        Protocol.Grpc => new GrpcProtocolClient(transport, options),
        Protocol.GraphQL => new GraphQLProtocolClient(transport, options),
        _ => new SignalRProtocolClient(protocol, transport, options),
    };
}
