namespace ProtocolBench.Shared.Domain.Shapes;

/// <summary>
/// Erftbjerg et al.'s payload shapes, built in memory and deterministic: growing in size (small, medium, large) and in
/// nesting (deep, deeper, deepest), each as one object by id and as a collection. No database; validated before anything
/// is built. docs/methodology.md ("The payload shapes") gives each shape's objects and values.
/// </summary>
public static class ShapeOperations
{
    /// <summary>A shape: its name and how many objects each level's objects hold (none below the last).</summary>
    public sealed record Kind(string Name, int[] FanOut)
    {
        /// <summary>Objects in one shape.</summary>
        public int Objects => FanOut.Aggregate((Total: 1, Level: 1), (s, n) => (s.Total + (s.Level * n), s.Level * n)).Total;

        /// <summary>Values in one shape: four an object (id, string, int, double).</summary>
        public int Values => Objects * ValuesPerObject;

        public int Levels => FanOut.Length + 1;
    }

    public const int ValuesPerObject = 4;

    public static readonly IReadOnlyList<Kind> Kinds =
    [
        new("small", []),
        new("medium", [9]),
        new("large", [6, 9]),
        new("deep", [1, 1]),
        new("deeper", [1, 1, 1, 1]),
        new("deepest", [1, 1, 1, 1, 1, 1, 1]),
    ];

    /// <summary>The deepest shape's levels: how far GraphQL's depth limit must reach to select every field of it.</summary>
    public static int MaxLevels => Kinds.Max(k => k.Levels);

    /// <summary>The shape <paramref name="kind"/> with id <paramref name="id"/> (1 to <see cref="Limits.ShapeIdMax"/>).</summary>
    public static ShapeDto Get(string? kind, int? id)
    {
        var shape = KindOf(kind);
        var value = Validate.Required("id", id);
        Validate.Range("id", value, 1, Limits.ShapeIdMax);
        return Build(shape, value);
    }

    /// <summary>Shapes 1 to <paramref name="count"/> (1 to <see cref="Limits.ShapeCountMax"/>, default 100).</summary>
    public static IReadOnlyList<ShapeDto> List(string? kind, int? count)
    {
        var shape = KindOf(kind);
        var length = count ?? Limits.ShapeCountMax;
        Validate.Range("count", length, 1, Limits.ShapeCountMax);
        var shapes = new ShapeDto[length];
        for (var i = 0; i < shapes.Length; i++)
        {
            shapes[i] = Build(shape, i + 1);
        }

        return shapes;
    }

    /// <summary>The kind named <paramref name="name"/>, or null (the cost models size what the domain would refuse as nothing).</summary>
    public static Kind? Find(string? name) => Kinds.FirstOrDefault(k => k.Name == name);

    /// <summary>The kind by its name; an unknown or missing one is an invalid argument that lists the names.</summary>
    public static Kind KindOf(string? kind)
    {
        var name = Validate.Text("kind", kind, 20);
        return Find(name)
               ?? throw DomainException.Invalid("kind", $"kind must be one of {string.Join(", ", Kinds.Select(k => k.Name))} (was \"{name}\").");
    }

    /// <summary>
    /// Object n of shape <paramref name="id"/> (n counts depth-first from 0, the root): "{kind} {id}.{n}", id × 1,000 + n,
    /// and id + n / 8, a double that every protocol carries exactly.
    /// </summary>
    private static ShapeDto Build(Kind kind, int id)
    {
        var next = 0;
        ShapeDto Node(int level)
        {
            var n = next++;
            var children = level < kind.FanOut.Length ? new ShapeDto[kind.FanOut[level]] : [];
            for (var i = 0; i < children.Length; i++)
            {
                children[i] = Node(level + 1);
            }

            return new ShapeDto(id, $"{kind.Name} {id}.{n}", (id * 1_000) + n, id + (n / 8.0), children);
        }

        return Node(0);
    }
}
