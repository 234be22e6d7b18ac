using ProtocolBench.Shared.Domain.Operations;

namespace ProtocolBench.Shared.Hosting.Operations;

/// <summary>A service's endpoints and the operations they are bound to, read from what the service maps.</summary>
public interface IOperationBindings
{
    /// <summary>The bindings, from the endpoints the service has mapped (REST's actions and gRPC's methods are among them).</summary>
    IEnumerable<OperationBinding> Read(IEnumerable<Endpoint> endpoints);

    /// <summary>Where the operation's description places it on this protocol (what the clients call), or null where it does not.</summary>
    string? Described(Operation operation);
}
