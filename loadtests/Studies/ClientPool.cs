namespace ProtocolBench.LoadTests.Studies;

/// <summary>
/// The clients of a run, kept for the whole run as a user of the library would. HTTP/1.1 clients get one pooled
/// connection per virtual user; HTTP/2 clients (gRPC, or REST/GraphQL with --http2) get one client, hence one
/// connection, per <see cref="LoadTestOptions.UsersPerHttp2Connection"/> users, so 50 users never queue behind one.
/// SignalR clients hold one WebSocket each, on which the hub answers one call at a time, as a browser's connection is
/// used: every virtual user has a client, hence a WebSocket, of its own.
/// </summary>
public sealed class ClientPool(ClientOptions options, LoadTestOptions run) : IAsyncDisposable
{
    private readonly Dictionary<(Protocol Protocol, Transport Transport, bool Floor), List<IProtocolClient>> _clients = [];

    public bool Multiplexed(Protocol protocol, Transport transport) =>
        protocol == Protocol.Grpc || (transport == Transport.Https && run.Http2ForRestAndGraphQL);

    /// <summary>The warm connections <paramref name="users"/> hold (with --connections new they hold none: each request opens its own).</summary>
    public int Connections(Protocol protocol, Transport transport, int users) =>
        Multiplexed(protocol, transport) ? (users + run.UsersPerHttp2Connection - 1) / run.UsersPerHttp2Connection : users;

    /// <summary>The clients virtual user u uses for the scenario: element u % Count (the floor's own, <see cref="UserFloor.Client"/>, for the floor).</summary>
    public IReadOnlyList<IProtocolClient> For(Scenario scenario, Protocol protocol, Transport transport, int users)
    {
        var floor = scenario.Group == ScenarioGroup.Floor;
        lock (_clients)
        {
            if (!_clients.TryGetValue((protocol, transport, floor), out var list))
            {
                _clients[(protocol, transport, floor)] = list = [];
            }

            var needed = protocol.Service() == Protocol.SignalR ? users
                : Multiplexed(protocol, transport) ? Connections(protocol, transport, users)
                : 1;
            while (list.Count < needed)
            {
                list.Add(floor ? new UserFloor.Client(transport, options) : ProtocolClients.Create(protocol, transport, options));
            }

            return list.Take(needed).ToList();
        }
    }

    /// <summary>Bytes on the wire, and connections opened, by every client of this protocol and transport so far.</summary>
    public (long Sent, long Received, long Connections) Wire(Protocol protocol, Transport transport)
    {
        lock (_clients)
        {
            var clients = _clients.Where(c => c.Key.Protocol == protocol && c.Key.Transport == transport).SelectMany(c => c.Value).ToList();
            return (clients.Sum(c => c.Wire.Sent), clients.Sum(c => c.Wire.Received), clients.Sum(c => c.Wire.Connections));
        }
    }

    public async ValueTask DisposeAsync()
    {
        foreach (var client in _clients.Values.SelectMany(c => c))
        {
            await client.DisposeAsync();
        }

        _clients.Clear();
    }
}
