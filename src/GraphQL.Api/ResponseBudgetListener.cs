using GraphQL.Execution;
using GraphQL.Validation;
using GraphQLParser.AST;
using ProtocolBench.Shared.Domain;
using ProtocolBench.Shared.Domain.Payloads;
using ProtocolBench.Shared.Hosting;

namespace ProtocolBench.GraphQL.Api;

/// <summary>
/// Reserves the largest possible answer of a validated operation from the <see cref="ResponseBudget"/> before it executes:
/// the sum over its root fields, with the same sizes REST and gRPC reserve for the same operations.
/// </summary>
internal sealed class ResponseBudgetListener(ResponseBudget budget, PayloadFiles files, HttpContext http) : DocumentExecutionListenerBase
{
    public override async Task AfterValidationAsync(IExecutionContext context, IValidationResult validationResult)
    {
        if (validationResult.IsValid)
        {
            await budget.ReserveForAsync(http, SizeOf(context.Operation.SelectionSet, context, validationResult), context.CancellationToken);
        }
    }

    /// <summary>Root fields, also inside fragments (whose depth and number the document limits bound).</summary>
    private long SizeOf(GraphQLSelectionSet selections, IExecutionContext context, IValidationResult validation)
    {
        long bytes = 0;
        foreach (var selection in selections.Selections)
        {
            bytes += selection switch
            {
                GraphQLField field => SizeOf(field, validation.ArgumentValues?.GetValueOrDefault(field)),
                GraphQLInlineFragment inline => SizeOf(inline.SelectionSet, context, validation),
                GraphQLFragmentSpread spread when Fragment(context.Document, spread) is { } fragment
                    => SizeOf(fragment.SelectionSet, context, validation),
                _ => 0,
            };
        }

        return bytes;
    }

    private static GraphQLFragmentDefinition? Fragment(GraphQLDocument document, GraphQLFragmentSpread spread) =>
        document.Definitions.OfType<GraphQLFragmentDefinition>().FirstOrDefault(f => f.FragmentName.Name.Value == spread.FragmentName.Name.Value);

    private long SizeOf(GraphQLField field, IDictionary<string, ArgumentValue>? arguments)
    {
        int? Int(string name) => arguments?.TryGetValue(name, out var value) == true ? value.Value as int? : null;
        return field.Name.StringValue switch
        {
            "clone" => ResponseSize.CloneHeld(arguments?.TryGetValue("text", out var text) == true ? text.Value as string : null, Int("count")),
            "ints" => ResponseSize.Ints(Int("count")),
            "textFile" => files.IsAvailable ? ResponseSize.File(files.Text.Length) : 0,
            "pdf" => files.IsAvailable ? ResponseSize.File(files.Pdf.Length) : 0,
            "searchAuthors" => ResponseSize.Search(Int("limit")),
            "authors" => ResponseSize.List(Int("take")),
            _ => 0,
        };
    }
}
