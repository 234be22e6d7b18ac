using ProtocolBench.Shared.Domain.Shapes;

namespace ProtocolBench.GraphQL.Api.Shapes;

/// <summary>The domain's <see cref="ShapeDto"/>: the same fields at every depth.</summary>
public sealed class ShapeType : ObjectGraphType<ShapeDto>
{
    public ShapeType()
    {
        Name = "Shape";
        Field(s => s.Id);
        Field(s => s.Name);
        Field(s => s.Count);
        Field(s => s.Ratio);
        // The shape's own size is counted once, by its query field (Cost.Shapes); nesting adds nothing more.
        Field<NonNullGraphType<ListGraphType<NonNullGraphType<ShapeType>>>, IReadOnlyList<ShapeDto>>("children")
            .Resolve(context => context.Source.Children)
            .WithComplexityImpact(fieldImpact: 0, childImpactMultiplier: 1);
    }
}
