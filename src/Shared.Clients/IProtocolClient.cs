namespace ProtocolBench.Shared.Clients;

/// <summary>
/// Every operation (docs/methodology.md, "The scenarios") on one protocol and transport, returning the same DTOs whatever the wire format.
/// Failures are <see cref="ProtocolClientException"/> with the protocol-neutral code (INVALID_ARGUMENT, NOT_FOUND, ...).
/// Any argument may be null, so tests can send a missing value.
/// </summary>
public interface IProtocolClient : ILibraryOperations
{
    Protocol Protocol { get; }

    Transport Transport { get; }

    /// <summary>Bytes this client's connections sent and received at the socket (TLS records on HTTPS).</summary>
    WireCounter Wire { get; }
}

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

/// <summary>An error the service returned, in protocol-neutral terms, plus the protocol's own status for reports.</summary>
public sealed class ProtocolClientException(string code, string message, string protocolStatus, Exception? inner = null)
    : Exception(message, inner)
{
    /// <summary>INVALID_ARGUMENT, NOT_FOUND, UNAVAILABLE, or the protocol's own code for anything else.</summary>
    public string Code { get; } = code;

    /// <summary>"HTTP 400", "gRPC InvalidArgument", "GraphQL INVALID_ARGUMENT".</summary>
    public string ProtocolStatus { get; } = protocolStatus;
}
