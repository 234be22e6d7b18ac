namespace ProtocolBench.Shared.Clients;

/// <summary>
/// The operations as a caller sees them: over a protocol (<see cref="IProtocolClient"/>) or in process, without any
/// protocol (the benchmark's domain floor), so a scenario is written once for both. A caller knows no operation by
/// name: it sends any <see cref="Operation"/> by the addresses the descriptor gives, and reads the answer by its type.
/// </summary>
public interface ILibraryOperations : IAsyncDisposable
{
    /// <summary>Whether this caller has the operation: the protocol offers it (GraphQL has no raw file, REST no stream).</summary>
    bool Offers(Operation operation);

    /// <summary>Sends the call and returns its answer; <see cref="NotSupportedException"/> for an operation it does not offer.</summary>
    Task<TResult> CallAsync<TResult>(OperationCall<TResult> call, CancellationToken cancellationToken = default);
}
