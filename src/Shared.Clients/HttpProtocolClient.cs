namespace ProtocolBench.Shared.Clients;

/// <summary>A client over HttpClient (REST and GraphQL): one client of the protocol's handler, counted on the wire.</summary>
public abstract class HttpProtocolClient : ProtocolClient
{
    protected HttpProtocolClient(Protocol protocol, Transport transport, ClientOptions options)
        : base(protocol, transport)
    {
        Http = ClientHandlers.CreateHttpClient(protocol, transport, options, Wire);
    }

    protected HttpClient Http { get; }

    public override ValueTask DisposeAsync()
    {
        Http.Dispose();
        return ValueTask.CompletedTask;
    }
}
