using GraphQL.Builders;

namespace ProtocolBench.GraphQL.Api.Operations;

/// <summary>A root field's <see cref="Operation"/>, kept in the field's metadata as its complexity is.</summary>
internal static class FieldOperations
{
    private const string Key = "ProtocolBench.Operation";

    /// <summary>Binds the field to the operation it answers: <c>.Answers(Operation.Clone)</c>.</summary>
    public static FieldBuilder<TSource, TReturn> Answers<TSource, TReturn>(this FieldBuilder<TSource, TReturn> field, Operation operation) =>
        field.WithMetadata(Key, operation);

    public static Operation? OperationOf(FieldType? field) => field?.GetMetadata<Operation?>(Key);
}
