namespace ProtocolBench.Shared.Domain.Payloads;

/// <summary>Int32 max as the REST service returns it, field for field gRPC's IntMaxReply.</summary>
public sealed record IntMaxResult(int Value);
