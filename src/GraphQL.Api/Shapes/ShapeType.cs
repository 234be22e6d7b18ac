using ProtocolBench.Shared.Domain.Shapes;

namespace ProtocolBench.GraphQL.Api.Shapes;

/// <summary>The domain's <see cref="ShapeDto"/>: the same fields at every depth.</summary>
public sealed class ShapeType : RecordType<ShapeDto>
{
    // The shape's own size is counted once, by its query field (Cost.Shapes); nesting adds nothing more.
    public ShapeType() => GetField(nameof(ShapeDto.Children))!.WithComplexityImpact(fieldImpact: 0, childImpactMultiplier: 1);
}
