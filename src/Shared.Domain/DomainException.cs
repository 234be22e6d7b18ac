namespace ProtocolBench.Shared.Domain;

/// <summary>The one error type every operation throws; each service maps it to its protocol.</summary>
public sealed class DomainException(ErrorCode code, string field, string message) : Exception(message)
{
    public ErrorCode Code { get; } = code;

    public string Field { get; } = field;

    /// <summary>The code as it appears on the wire: REST ProblemDetails, gRPC trailers and GraphQL extensions.</summary>
    public string WireCode => Code switch
    {
        ErrorCode.InvalidArgument => "INVALID_ARGUMENT",
        ErrorCode.NotFound => "NOT_FOUND",
        _ => "UNAVAILABLE",
    };

    public static DomainException Invalid(string field, string message) => new(ErrorCode.InvalidArgument, field, message);

    public static DomainException NotFound(string field, string message) => new(ErrorCode.NotFound, field, message);
}
