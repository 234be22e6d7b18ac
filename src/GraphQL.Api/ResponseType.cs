namespace ProtocolBench.GraphQL.Api;

/// <summary>The response types. Without Accept, or for a wildcard, application/json: what a client that predates the spec reads.</summary>
internal enum ResponseType
{
    GraphQLResponse,
    Json,
}
