using GraphQLParser.Exceptions;

namespace ProtocolBench.GraphQL.Api;

/// <summary>
/// The parser with limits, checked before graphql-dotnet validates anything, because its validation has no bounds of its
/// own (read in graphql-dotnet 8.8.4): <c>NoFragmentCycles</c> follows fragment spreads by recursion (a chain of 20,000
/// fragments overflows the stack and ends the process), the complexity analyzer expands every spread (40 fragments that
/// each spread the next twice never finish), <c>OverlappingFieldsCanBeMerged</c> compares every pair of fields with one
/// response name and reports one error per conflicting pair, and every error finds its line by scanning the document
/// from its start. So: the document's length bounds the cost of its errors, and one pass here, iterative where the
/// document is not already depth-limited, bounds fields, fragment depth, spreads and field merges.
/// Refusals are request errors: HTTP 400, nothing executed.
/// </summary>
internal sealed class LimitedDocumentBuilder : IDocumentBuilder
{
    /// <summary>A ProtocolBench document is under 1 KiB: data travels in variables, which are not counted here.</summary>
    public const int MaxDocumentChars = 32_768;

    /// <summary>AST nesting; graphql-dotnet's own option, so every recursion over one definition is at most this deep.</summary>
    public const int MaxParserDepth = 64;

    /// <summary>Field selections, in the text and again with every fragment expanded (HotChocolate's MaxAllowedFields).</summary>
    public const int MaxFields = 2_048;

    /// <summary>Fragment spreads inside fragment spreads.</summary>
    public const int MaxFragmentDepth = 8;

    /// <summary>Fragment spreads visited when every operation is expanded (HotChocolate allows 1,000).</summary>
    public const int MaxFragmentSpreads = 256;

    /// <summary>Pairs of fields with one response name in one selection set, which validation must compare.</summary>
    public const int MaxFieldMerges = 1_000;

    /// <summary>
    /// An alias is the key of its field's every value: one of 30,000 characters on an author's id made a search of 5,000
    /// authors answer 150 MB for a document of 30 KB. At 32 characters a key and its value stay within the 64 bytes a point
    /// of cost stands for.
    /// </summary>
    public const int MaxAliasChars = 32;

    private readonly GraphQLDocumentBuilder _parser = new() { MaxDepth = MaxParserDepth };

    public GraphQLDocument Build(string body)
    {
        if (body.Length > MaxDocumentChars)
        {
            throw Refused("DOCUMENT_TOO_LONG", $"The document is longer than {MaxDocumentChars} characters; send values as variables.");
        }

        GraphQLDocument document;
        try
        {
            document = _parser.Build(body);
        }
        catch (GraphQLMaxDepthExceededException)
        {
            throw Refused("DOCUMENT_TOO_DEEP", $"The document nests deeper than {MaxParserDepth} levels.");
        }

        DocumentBudget.Check(document);
        return document;
    }

    internal static ExecutionError Refused(string code, string message) => new(message) { Code = code };
}
