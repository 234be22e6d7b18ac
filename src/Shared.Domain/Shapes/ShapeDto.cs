namespace ProtocolBench.Shared.Domain.Shapes;

/// <summary>
/// One object of a payload shape (Erftbjerg et al.): an id, a string, an int and a double, and the objects it holds.
/// The same type at every depth, so every protocol carries a tree of one kind of record.
/// </summary>
public sealed record ShapeDto(int Id, string Name, int Count, double Ratio, IReadOnlyList<ShapeDto> Children)
{
    /// <summary>Empty, never null: a client that did not ask for the children of the last level (GraphQL) reads none.</summary>
    public IReadOnlyList<ShapeDto> Children { get; init; } = Children ?? [];

    public bool Equals(ShapeDto? other) =>
        other is not null && Id == other.Id && Name == other.Name && Count == other.Count && Ratio.Equals(other.Ratio)
        && Children.SequenceEqual(other.Children);

    // No other property: every serializer (System.Text.Json, MessagePack) sends each one as a field.
    public override int GetHashCode() => HashCode.Combine(Id, Name, Count, Ratio, Children.Count);
}
