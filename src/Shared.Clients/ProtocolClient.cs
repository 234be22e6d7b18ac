namespace ProtocolBench.Shared.Clients;

/// <summary>What every protocol's client has: its protocol, its transport and the bytes its connections moved.</summary>
public abstract class ProtocolClient(Protocol protocol, Transport transport) : IProtocolClient
{
    public Protocol Protocol { get; } = protocol;

    public Transport Transport { get; } = transport;

    public WireCounter Wire { get; } = new();

    public abstract bool Offers(Operation operation);

    public abstract Task<TResult> CallAsync<TResult>(OperationCall<TResult> call, CancellationToken cancellationToken = default);

    public abstract ValueTask DisposeAsync();
}
