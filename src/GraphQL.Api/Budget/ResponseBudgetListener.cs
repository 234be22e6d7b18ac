namespace ProtocolBench.GraphQL.Api.Budget;

/// <summary>
/// Reserves the largest possible answer of a validated operation from the <see cref="ResponseBudget"/> before it executes:
/// the sum over its root fields of what their <see cref="Operation"/> can answer, the same sizes REST and gRPC reserve;
/// nothing for a file, whose base64 is written from the copy every caller shares (<see cref="Operation.IsShared"/>).
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
                GraphQLField field => SizeOf(field, context, validation.ArgumentValues?.GetValueOrDefault(field)),
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

    private long SizeOf(GraphQLField field, IExecutionContext context, IDictionary<string, ArgumentValue>? arguments)
    {
        var root = context.Operation.Operation == OperationType.Mutation ? context.Schema.Mutation : context.Schema.Query;
        return FieldOperations.OperationOf(root?.GetField(field.Name.Value)) is { IsShared: false } operation
            ? operation.MostAnswered(new OperationArguments(arguments, ReadArgument), files)
            : 0;
    }

    private static object? ReadArgument(object? arguments, string name) =>
        ((IDictionary<string, ArgumentValue>?)arguments)?.TryGetValue(name, out var value) == true ? value.Value : null;
}
