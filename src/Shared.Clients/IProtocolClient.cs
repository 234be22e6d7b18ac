namespace ProtocolBench.Shared.Clients;

/// <summary>
/// Every operation (docs/methodology.md, "The scenarios") on one protocol and transport, returning the same DTOs whatever the wire format.
/// Failures are <see cref="ProtocolClientException"/> with the protocol-neutral code (INVALID_ARGUMENT, NOT_FOUND, ...).
/// Arguments are nullable so tests can send a missing value.
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
/// protocol (the benchmark's domain floor), so a scenario is written once for both.
/// </summary>
public interface ILibraryOperations : IAsyncDisposable
{
    Task<string> CloneAsync(string? text, int? count, CancellationToken cancellationToken = default);

    Task<int> GetIntMaxAsync(CancellationToken cancellationToken = default);

    Task<int[]> GetIntsAsync(int? count, CancellationToken cancellationToken = default);

    Task<AuthorDto> GetSampleAsync(CancellationToken cancellationToken = default);

    /// <summary>The file in the protocol's structured form: base64 in JSON (REST, GraphQL), a bytes field (gRPC).</summary>
    Task<byte[]> GetTextFileAsync(CancellationToken cancellationToken = default);

    Task<byte[]> GetPdfAsync(CancellationToken cancellationToken = default);

    /// <summary>The file in the protocol's native binary form: REST /raw, gRPC's bytes field (already binary). Null when there is none (GraphQL).</summary>
    Task<byte[]>? GetTextFileBinaryAsync(CancellationToken cancellationToken = default);

    /// <summary>The file in the protocol's native binary form: REST /raw, gRPC StreamPdf chunks. Null when there is none (GraphQL).</summary>
    Task<byte[]>? GetPdfBinaryAsync(CancellationToken cancellationToken = default);

    Task<IReadOnlyList<AuthorDto>> SearchAuthorsAsync(string? phrase, int? limit = null, CancellationToken cancellationToken = default);

    Task<IReadOnlyList<AuthorDto>> ListAuthorsAsync(int? skip = null, int? take = null, CancellationToken cancellationToken = default);

    Task<AuthorDto> GetAuthorAsync(int id, CancellationToken cancellationToken = default);

    Task<AuthorDto> CreateAuthorAsync(string? name, string? country, CancellationToken cancellationToken = default);

    Task<AuthorDto> UpdateAuthorAsync(int id, string? name, string? country, CancellationToken cancellationToken = default);

    Task DeleteAuthorAsync(int id, CancellationToken cancellationToken = default);

    /// <summary>One payload shape by kind (small … deepest) and id.</summary>
    Task<ShapeDto> GetShapeAsync(string? kind, int id, CancellationToken cancellationToken = default);

    /// <summary>Shapes 1 to <paramref name="count"/> of a kind (default 100).</summary>
    Task<IReadOnlyList<ShapeDto>> ListShapesAsync(string? kind, int? count = null, CancellationToken cancellationToken = default);
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
