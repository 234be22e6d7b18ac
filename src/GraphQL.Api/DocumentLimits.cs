using GraphQL;
using GraphQL.Execution;
using GraphQLParser.AST;

namespace ProtocolBench.GraphQL.Api;

/// <summary>
/// The parser with limits: nesting depth (graphql-dotnet's own option) and the number of field selections, which the
/// engine does not limit. A document of thousands of fields (aliases, `name name name…`) is refused before validation,
/// whose overlapping-fields rule is quadratic in them. Refusals are request errors: HTTP 400, nothing executed.
/// </summary>
internal sealed class LimitedDocumentBuilder : IDocumentBuilder
{
    /// <summary>HotChocolate's default MaxAllowedFields; a legitimate ProtocolBench query has fewer than 20.</summary>
    public const int MaxFields = 2_048;

    public const int MaxParserDepth = 64;

    private readonly GraphQLDocumentBuilder _parser = new() { MaxDepth = MaxParserDepth };

    public GraphQLDocument Build(string body)
    {
        var document = _parser.Build(body);
        var fields = 0;
        foreach (var definition in document.Definitions)
        {
            var selections = definition switch
            {
                GraphQLOperationDefinition operation => operation.SelectionSet,
                GraphQLFragmentDefinition fragment => fragment.SelectionSet,
                _ => null,
            };
            fields += CountFields(selections);
            if (fields > MaxFields)
            {
                throw new ExecutionError($"The document has more than {MaxFields} field selections.") { Code = "TOO_MANY_FIELDS" };
            }
        }

        return document;
    }

    private static int CountFields(GraphQLSelectionSet? selectionSet)
    {
        if (selectionSet is null)
        {
            return 0;
        }

        var count = 0;
        foreach (var selection in selectionSet.Selections)
        {
            count += selection switch
            {
                GraphQLField field => 1 + CountFields(field.SelectionSet),
                GraphQLInlineFragment inline => CountFields(inline.SelectionSet),
                _ => 0,
            };
        }

        return count;
    }
}
