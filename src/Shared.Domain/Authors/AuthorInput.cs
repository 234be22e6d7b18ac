namespace ProtocolBench.Shared.Domain.Authors;

public sealed record AuthorInput(string? Name, string? Country);
