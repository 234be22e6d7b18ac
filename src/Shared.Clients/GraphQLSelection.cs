namespace ProtocolBench.Shared.Clients;

/// <summary>
/// What the GraphQL client selects for an answer, by its type: every field REST returns, at every level. A shape is
/// selected as deep as its kind goes (a kind that is not known is asked for one level); a scalar selects nothing.
/// </summary>
internal static class GraphQLSelection
{
    private const string Author = " { id name country books { id authorId title year } }";
    private const string File = " { name contentType data }";

    private static readonly Dictionary<string, string> Shapes =
        ShapeOperations.Kinds.ToDictionary(k => k.Name, k => $" {{ {ShapeFields(k.Levels)} }}");

    public static string Of(OperationCall call)
    {
        var type = call.Operation.ResultType;
        if (type == typeof(AuthorDto) || type == typeof(IReadOnlyList<AuthorDto>))
        {
            return Author;
        }

        if (type == typeof(FilePayload))
        {
            return File;
        }

        if (type == typeof(ShapeDto) || type == typeof(IReadOnlyList<ShapeDto>))
        {
            return Shapes[(ShapeOperations.Find(call.Value("kind") as string) ?? ShapeOperations.Kinds[0]).Name];
        }

        return "";
    }

    private static string ShapeFields(int levels) =>
        levels == 1 ? "id name count ratio" : $"id name count ratio children {{ {ShapeFields(levels - 1)} }}";
}
