namespace ProtocolBench.Shared.Clients;

/// <summary>An error the service returned, in protocol-neutral terms, plus the protocol's own status for reports.</summary>
public sealed class ProtocolClientException(string code, string message, string protocolStatus, Exception? inner = null)
    : Exception(message, inner)
{
    /// <summary>INVALID_ARGUMENT, NOT_FOUND, UNAVAILABLE, or the protocol's own code for anything else.</summary>
    public string Code { get; } = code;

    /// <summary>"HTTP 400", "gRPC InvalidArgument", "GraphQL INVALID_ARGUMENT".</summary>
    public string ProtocolStatus { get; } = protocolStatus;
}
