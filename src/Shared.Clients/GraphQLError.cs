namespace ProtocolBench.Shared.Clients;

internal sealed record GraphQLError(string? Message, GraphQLErrorExtensions? Extensions);
