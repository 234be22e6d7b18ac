namespace ProtocolBench.Shared.Clients;

public sealed record RestProblem(string? Title, int? Status, string? Detail, string? Code, string? Field);
