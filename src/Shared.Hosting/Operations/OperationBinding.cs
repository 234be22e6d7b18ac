using ProtocolBench.Shared.Domain.Operations;

namespace ProtocolBench.Shared.Hosting.Operations;

/// <summary>
/// One endpoint of a service (a REST action, a gRPC method, a GraphQL root field, a hub method), the operation it is
/// bound to, the arguments it takes by name and in order, where the service maps it (<paramref name="Address"/>) and
/// where the operation's descriptor says this protocol has it (<paramref name="Described"/>), which the clients call.
/// </summary>
public sealed record OperationBinding(string Endpoint, Operation? Operation, IReadOnlyList<string> Parameters, string Address, string? Described)
{
    /// <summary>What keeps the clients from calling it or its answer from being sized, or null.</summary>
    public string? Problem => Operation switch
    {
        null => $"{Endpoint} is bound to no operation: bind it to one of Operation.All ([Operation(nameof(Operation.X))]; in GraphQL, .Answers(Operation.X))",
        _ when Described != Address =>
            $"{Endpoint} is at '{Address}', where Operation.{Operation.Name} says {(Described is null ? "this protocol does not offer it" : $"'{Described}'")}",
        _ when !Parameters.SequenceEqual(Operation.Parameters.Select(p => p.Name)) =>
            $"{Endpoint} takes ({string.Join(", ", Parameters)}), where Operation.{Operation.Name} has ({string.Join(", ", Operation.Parameters.Select(p => p.Name))})",
        _ => null,
    };
}
