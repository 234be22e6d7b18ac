namespace ProtocolBench.Shared.Clients;

/// <summary>A response whose root field holds a <typeparamref name="T"/> (a number or a flag as nullable: null beside errors).</summary>
internal sealed record GraphQLResponse<T>(GraphQLField<T>? Data, IReadOnlyList<GraphQLError>? Errors) : IGraphQLResponse
{
    public object? Value => Data is null ? null : Data.Value;
}
