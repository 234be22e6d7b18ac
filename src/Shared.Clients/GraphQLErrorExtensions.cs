namespace ProtocolBench.Shared.Clients;

internal sealed record GraphQLErrorExtensions(string? Code, string? Field);
