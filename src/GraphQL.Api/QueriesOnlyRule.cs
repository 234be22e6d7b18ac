namespace ProtocolBench.GraphQL.Api;

/// <summary>GET may only read: a mutation over GET is refused at validation (405), before it could run.</summary>
internal sealed class QueriesOnlyRule : ValidationRuleBase
{
    public static readonly QueriesOnlyRule Instance = new();

    public override ValueTask<INodeVisitor?> GetPreNodeVisitorAsync(ValidationContext context)
    {
        if (context.Operation.Operation != OperationType.Query)
        {
            context.ReportError(new QueriesOnlyError(context.Document.Source, context.Operation));
        }

        return default;
    }
}
