using ProtocolBench.Shared.Domain.Operations;

namespace ProtocolBench.Shared.Hosting.Operations;

/// <summary>
/// One endpoint of a service (a REST action, a gRPC method, a GraphQL root field, a hub method), the operation it is
/// bound to, and the arguments it takes by name.
/// </summary>
public sealed record OperationBinding(string Endpoint, Operation? Operation, IReadOnlyCollection<string> Parameters)
{
    /// <summary>What keeps its answer from being sized, or null: no operation, or an argument the size reads that the endpoint lacks.</summary>
    public string? Problem => Operation switch
    {
        null => $"{Endpoint} is bound to no operation: bind it to one of Operation.All ([Operation(nameof(Operation.X))]; in GraphQL, .Answers(Operation.X))",
        _ when Operation.Arguments.Where(a => !Parameters.Contains(a)).ToList() is [_, ..] missing =>
            $"{Endpoint} takes no argument named {string.Join(", ", missing)}, which the size of {Operation.Name} is read from",
        _ => null,
    };
}
