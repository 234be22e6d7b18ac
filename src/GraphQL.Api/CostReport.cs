namespace ProtocolBench.GraphQL.Api;

internal sealed record CostReport(double Complexity, int Depth)
{
    public Dictionary<string, object?> ToExtension() => new()
    {
        ["complexity"] = Complexity,
        ["maxComplexity"] = Cost.MaxComplexity,
        ["depth"] = Depth,
        ["maxDepth"] = Limits.GraphQLMaxDepth,
    };
}
