namespace ProtocolBench.Shared.Clients;

public enum Protocol
{
    Rest,
    Grpc,
    GraphQL,
    SignalR,
}

public enum Transport
{
    Http,
    Https,
}
