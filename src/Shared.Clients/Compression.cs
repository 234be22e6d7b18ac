namespace ProtocolBench.Shared.Clients;

/// <summary>
/// What the client asks the services to compress (--compression): REST and GraphQL responses by HTTP content encoding
/// (Accept-Encoding), gRPC messages both ways by grpc-encoding, which has gzip only.
/// </summary>
public enum Compression
{
    None,
    Gzip,

    /// <summary>br for REST and GraphQL; gRPC has no Brotli encoding and uses gzip.</summary>
    Brotli,
}
