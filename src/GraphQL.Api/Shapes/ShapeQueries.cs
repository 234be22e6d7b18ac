using ProtocolBench.Shared.Domain.Shapes;

namespace ProtocolBench.GraphQL.Api.Shapes;

/// <summary>shape, shapes: Erftbjerg's payload shapes, built by ShapeOperations. No database.</summary>
internal static class ShapeQueries
{
    public static ObjectGraphType AddShapeQueries(this ObjectGraphType query)
    {
        var kinds = string.Join(", ", ShapeOperations.Kinds.Select(k => k.Name));
        query.Field<ShapeType, ShapeDto>("shape")
            .Answers(Operation.GetShape)
            .Description($"One shape by id (1–{Limits.ShapeIdMax}); kind: {kinds}.")
            .Argument<StringGraphType>("kind")
            .Argument<NonNullGraphType<IntGraphType>>("id")
            .WithComplexityImpact(c => Cost.Shapes(c, 1))
            .Resolve(context => ShapeOperations.Get(context.GetArgument<string?>("kind"), context.GetArgument<int>("id")));

        query.Field<ListGraphType<NonNullGraphType<ShapeType>>, IReadOnlyList<ShapeDto>>("shapes")
            .Answers(Operation.ListShapes)
            .Description($"Shapes 1 to count (1–{Limits.ShapeCountMax}, default {Limits.ShapeCountMax}); kind: {kinds}.")
            .Argument<StringGraphType>("kind")
            .Argument<IntGraphType>("count")
            .WithComplexityImpact(c => Cost.Shapes(c, Math.Clamp(c.GetArgument<int?>("count", null) ?? Limits.ShapeCountMax, 1, Limits.ShapeCountMax)))
            .Resolve(context => ShapeOperations.List(context.GetArgument<string?>("kind"), context.GetArgument<int?>("count")));

        return query;
    }
}
