namespace ProtocolBench.GraphQL.Api;

internal sealed class QueriesOnlyError : ValidationError
{
    public QueriesOnlyError(GraphQLParser.ROM source, GraphQLOperationDefinition operation)
        : base(source, null, $"A {operation.Operation.ToString().ToLowerInvariant()} cannot be sent over GET; use POST.", operation)
    {
        Code = "METHOD_NOT_ALLOWED";
    }
}
