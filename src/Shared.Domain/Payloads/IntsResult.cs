namespace ProtocolBench.Shared.Domain.Payloads;

/// <summary>The ints as the REST service returns them, field for field gRPC's IntsReply.</summary>
public sealed record IntsResult(int[] Values);
