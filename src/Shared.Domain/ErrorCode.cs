namespace ProtocolBench.Shared.Domain;

public enum ErrorCode
{
    InvalidArgument,
    NotFound,
    Unavailable,
}
