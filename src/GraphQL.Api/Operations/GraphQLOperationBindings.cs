using ProtocolBench.Shared.Hosting.Operations;

namespace ProtocolBench.GraphQL.Api.Operations;

/// <summary>Every root field of the schema, bound by its metadata (<see cref="FieldOperations.Answers"/>).</summary>
internal sealed class GraphQLOperationBindings(ISchema schema) : IOperationBindings
{
    public IEnumerable<OperationBinding> Read(IEnumerable<Endpoint> endpoints) =>
        from root in new[] { schema.Query, schema.Mutation }.OfType<IObjectGraphType>()
        from field in root.Fields
        let operation = FieldOperations.OperationOf(field)
        select new OperationBinding(
            $"{root.Name}.{field.Name}",
            operation,
            field.Arguments?.Select(a => a.Name).ToList() ?? [],
            $"{(root == schema.Query ? "query" : "mutation")} {field.Name}",
            operation?.GraphQL);

    public string? Described(Operation operation) => operation.GraphQL;
}
