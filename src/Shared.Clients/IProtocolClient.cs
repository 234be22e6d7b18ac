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
