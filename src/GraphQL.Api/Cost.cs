using GraphQL.Validation.Complexity;
using ProtocolBench.Shared.Domain.Shapes;

namespace ProtocolBench.GraphQL.Api;

/// <summary>
/// The cost model for graphql-dotnet's complexity analyzer, checked at validation, before anything executes:
/// 1 point per value in the response (scalar, object, list item) or per 64 bytes of text, plus 1,000 per database round
/// trip. Text is counted by the bytes JSON sends for it, escapes included, so that the limit bounds the response: at most about 110,000 × 64 B ≈ 7 MB.
/// List multipliers come from the arguments that bound them (limit, take), clamped to the domain's maximum so an
/// out-of-range argument still reaches the domain and gets its INVALID_ARGUMENT message, as on REST and gRPC.
/// Send <c>GraphQL-Cost: report</c> to see a request's cost in <c>extensions.cost</c>.
/// </summary>
internal static class Cost
{
    public const int DatabaseCall = 1_000;

    /// <summary>The seed gives every author 1–3 books; authors created later have none.</summary>
    public const int BooksPerAuthor = 3;

    /// <summary>
    /// Measured with GraphQL-Cost: report. The heaviest legitimate operations are ints(count: 100000) at 100,000,
    /// searchAuthors with the default limit 5,000 and every field at 81,000, and the PDF at 74,276; 10% headroom lets them
    /// carry __typename or a small second field. 200 aliased createAuthor cost at least 200,200 and are refused whole, and
    /// so are seven clones of 1 MiB (16,384 each): one request cannot ask for more text than about one PDF.
    /// </summary>
    public const int MaxComplexity = 110_000;

    public const string ReportHeader = "GraphQL-Cost";

    private const string ReportKey = "ProtocolBench.Cost";

    public static void Configure(ComplexityOptions options, bool allowIntrospection)
    {
        options.MaxDepth = Limits.GraphQLMaxDepth;
        options.MaxComplexity = MaxComplexity;
        options.ValidateComplexityDelegate = context =>
        {
            context.ValidationContext.UserContext[ReportKey] = new CostReport(context.TotalImpact, context.MaxDepth);
            // Development tools send deep ofType chains; introspection itself is refused outside Development.
            if (allowIntrospection && IsIntrospectionOnly(context.ValidationContext.Operation))
            {
                context.Error = null;
            }

            return Task.CompletedTask;
        };
    }

    public static CostReport? Reported(IDictionary<string, object?> userContext) =>
        userContext.TryGetValue(ReportKey, out var value) ? value as CostReport : null;

    /// <summary>searchAuthors and authors: one round trip, and as many authors as the bounding argument allows.</summary>
    public static FieldComplexityResult DatabaseList(FieldImpactContext context, string argument, int defaultCount, int maxCount) =>
        new(DatabaseCall, Math.Clamp(context.GetArgument<int?>(argument, null) ?? defaultCount, 1, maxCount));

    /// <summary>ints: one value per item.</summary>
    public static FieldComplexityResult Ints(FieldImpactContext context) =>
        new(Math.Clamp(context.GetArgument<int?>("count", null) ?? 0, 1, Limits.IntsCountMax), 1);

    /// <summary>A shape or a collection: a point per value and per object of every shape (its size is fixed by its kind).</summary>
    public static FieldComplexityResult Shapes(FieldImpactContext context, int count) =>
        new(Math.Max(1, (ShapeOperations.Find(context.GetArgument<string?>("kind", null)) is { } kind
            ? (double)kind.Objects * (ShapeOperations.ValuesPerObject + 1) * count
            : 1)), 1);

    /// <summary>The bytes one point of text stands for: about what a value (an id, a short name) costs in JSON.</summary>
    public const int TextBytesPerPoint = 64;

    /// <summary>
    /// clone: one point per 64 bytes of the returned text as JSON sends it (escapes included: a control character is six
    /// bytes), the same bytes the response budget reserves.
    /// </summary>
    public static FieldComplexityResult Clone(FieldImpactContext context) =>
        new(TextPoints(ResponseSize.Clone(context.GetArgument<string?>("text", null), context.GetArgument<int?>("count", null))), 1);

    /// <summary>A file: one point per 64 bytes of its base64 text, as JSON sends it.</summary>
    public static double Base64Text(int bytes) => TextPoints(ResponseSize.File(bytes));

    private static double TextPoints(long bytes) => Math.Max(1, Math.Ceiling(bytes / (double)TextBytesPerPoint));

    private static bool IsIntrospectionOnly(GraphQLOperationDefinition operation) =>
        operation.SelectionSet.Selections.All(s => s is GraphQLField f && (f.Name.Value == "__schema" || f.Name.Value == "__type" || f.Name.Value == "__typename"));
}
