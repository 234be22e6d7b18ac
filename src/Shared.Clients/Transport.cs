namespace ProtocolBench.Shared.Clients;

public enum Transport
{
    Http,
    Https,
}
