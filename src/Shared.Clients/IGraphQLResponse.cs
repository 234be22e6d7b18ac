namespace ProtocolBench.Shared.Clients;

/// <summary>A GraphQL response of any operation, as the client checks it: the root field's value, or the errors.</summary>
internal interface IGraphQLResponse
{
    object? Value { get; }

    IReadOnlyList<GraphQLError>? Errors { get; }
}
