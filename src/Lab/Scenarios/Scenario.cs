using System.Text.Json.Serialization;
using ProtocolBench.Shared.Domain.Authors;

namespace ProtocolBench.Lab.Scenarios;

/// <summary>
/// One operation as both commands measure it and every report names it: defined once, in <see cref="Catalogue"/>.
/// </summary>
[JsonConverter(typeof(ScenarioJsonConverter))]
public sealed record Scenario(int Order, string Name, string Label, ScenarioGroup Group) : IComparable<Scenario>, IComparable
{
    /// <summary>The request; null for the floor, which is plain HTTP below every protocol (the Floor class sends it).</summary>
    public ScenarioRequest? Request { get; init; }

    /// <summary>Sent through a protocol's client (every scenario but the floor).</summary>
    public bool HasRequest => Request is not null;

    /// <summary>The O(1) check of every response before it counts (value, length, first, middle and last element); throws <see cref="InvalidDataException"/>.</summary>
    public Action<object, string> Check { get; init; } = (_, _) => { };

    /// <summary>The full comparison (SHA-256 of the files, every author against the seed), once per cell before timing.</summary>
    public Func<ILibraryOperations, CancellationToken, Task>? Verify { get; init; }

    public IReadOnlyList<Protocol> Protocols { get; init; } = Display.Protocols;

    /// <summary>I..VII for Bolanowski's scenarios.</summary>
    public string? Bolanowski { get; init; }

    public PaperFigures? Paper { get; init; }

    /// <summary>Śliwa &amp; Pańczyk's claim about this scenario under virtual users.</summary>
    public SliwaClaim? Sliwa { get; init; }

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

    /// <summary>
    /// The one call of a scenario, for every caller (the benchmark, the warm-up, the parity test): sends the request and
    /// checks the response; throws what the client threw or <see cref="InvalidDataException"/>.
    /// </summary>
    public async Task<object> CallAsync(ILibraryOperations client, string marker, CancellationToken cancellationToken)
    {
        var response = await SendAsync(client, marker, cancellationToken).ConfigureAwait(false);
        Check(response, marker);
        return response;
    }

    /// <summary>
    /// <see cref="CallAsync"/> for callers that count instead of throwing (the virtual users, the paced stream): timed
    /// (the O(1) check included), bounded by <paramref name="timeout"/> on top of the client's own, and classified; the
    /// id of what a create wrote is kept even when the check refuses the answer, so the nothing-lost check can find it.
    /// </summary>
    public async Task<Attempt> AttemptAsync(ILibraryOperations client, string marker, TimeSpan timeout, CancellationToken stop)
    {
        using var attempt = CancellationTokenSource.CreateLinkedTokenSource(stop);
        attempt.CancelAfter(timeout);
        var start = Stopwatch.GetTimestamp();
        object? response = null;
        Outcome outcome;
        try
        {
            response = await SendAsync(client, marker, attempt.Token).ConfigureAwait(false);
            Check(response, marker);
            outcome = Outcome.Ok;
        }
        catch (Exception e)
        {
            outcome = Outcome.Classify(e, stop, attempt.Token);
        }

        return new Attempt(outcome, start, Stopwatch.GetElapsedTime(start), Creates && response is AuthorDto author ? author.Id : 0);
    }

    private Task<object> SendAsync(ILibraryOperations client, string marker, CancellationToken cancellationToken) =>
        (Request ?? throw new InvalidOperationException($"{Name} has no request."))(client, marker, cancellationToken);

    public int CompareTo(Scenario? other) => Order.CompareTo(other?.Order ?? -1);

    public int CompareTo(object? other) => CompareTo(other as Scenario);

    /// <summary>BenchmarkDotNet shows a parameter by its text: the command-line name, e.g. search-3112.</summary>
    public override string ToString() => Name;
}
