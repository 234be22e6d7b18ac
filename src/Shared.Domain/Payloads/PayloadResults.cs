namespace ProtocolBench.Shared.Domain.Payloads;

// The shapes the REST service returns and the typed clients read; they mirror the gRPC messages field for field.
public sealed record CloneResult(string Text);

public sealed record IntMaxResult(int Value);

public sealed record IntsResult(int[] Values);

public sealed record FilePayload(string Name, string ContentType, byte[] Data);
