using ProtocolBench.Shared.Clients;

namespace ProtocolBench.Lab.Scenarios;

/// <summary>Which benchmark class measures a scenario (one class, one set of BenchmarkDotNet reports).</summary>
public enum ScenarioGroup
{
    Baseline,
    Payloads,
    Files,
    BinaryFiles,
    Authors,
}

/// <summary>Bolanowski et al. 2022: median response time in ms over their LAN, and the verdicts of their Table 1.</summary>
public sealed record PaperFigures(double RestHttp, double GrpcHttp, double RestHttps, double GrpcHttps, string VerdictHttp, string VerdictHttps)
{
    public (double RestMs, double GrpcMs, string Verdict) On(Transport transport) =>
        transport == Transport.Http ? (RestHttp, GrpcHttp, VerdictHttp) : (RestHttps, GrpcHttps, VerdictHttps);
}

/// <summary>One call of a scenario: a protocol's client or the operations in process, a marker (the name a create writes) and a cancellation token.</summary>
public delegate Task<object> ScenarioCall(ILibraryOperations client, string marker, CancellationToken cancellationToken);

/// <summary>
/// One operation as both commands measure it and every report names it: defined once, in <see cref="Catalogue"/>.
/// </summary>
public sealed record Scenario(int Order, string Name, string Label, ScenarioGroup Group) : IComparable<Scenario>, IComparable
{
    /// <summary>The request; null for the floor, which is plain HTTP below every protocol (the Baseline class sends it).</summary>
    public ScenarioCall? Call { get; init; }

    /// <summary>The O(1) check of every response before it counts (value, length, first, middle and last element); throws <see cref="InvalidDataException"/>.</summary>
    public Action<object, string> Check { get; init; } = (_, _) => { };

    /// <summary>The full comparison (SHA-256 of the files, every author against the seed), once per cell before timing.</summary>
    public Func<ILibraryOperations, CancellationToken, Task>? Verify { get; init; }

    public IReadOnlyList<Protocol> Protocols { get; init; } = Display.Protocols;

    /// <summary>I..VII for Bolanowski's scenarios.</summary>
    public string? Bolanowski { get; init; }

    public PaperFigures? Paper { get; init; }

    /// <summary>Reads or writes the database (its domain floor needs one).</summary>
    public bool UsesDatabase => Group == ScenarioGroup.Authors;

    /// <summary>Writes an author named by the marker.</summary>
    public bool Creates { get; init; }

    /// <summary>For the searches: the phrase and the rows it returns.</summary>
    public string? Phrase { get; init; }

    public int? Rows { get; init; }

    /// <summary>The label without its parenthesis, for narrow places (charts, console).</summary>
    public string Short => Label.Split(" (")[0];

    public bool AppliesTo(Protocol protocol) => Protocols.Contains(protocol);

    /// <summary>What is wrong with a response, or null: for callers that count failures instead of throwing.</summary>
    public string? ProblemWith(object result, string marker)
    {
        try
        {
            Check(result, marker);
            return null;
        }
        catch (Exception e) when (e is InvalidDataException or InvalidCastException)
        {
            return e.Message;
        }
    }

    public int CompareTo(Scenario? other) => Order.CompareTo(other?.Order ?? -1);

    public int CompareTo(object? other) => CompareTo(other as Scenario);

    /// <summary>BenchmarkDotNet shows a parameter by its text: the command-line name, e.g. search-3112.</summary>
    public override string ToString() => Name;
}
