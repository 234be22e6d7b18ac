namespace ProtocolBench.Shared.Clients;

public enum Protocol
{
    Rest,
    Grpc,
    GraphQL,
}

public enum Transport
{
    Http,
    Https,
}
