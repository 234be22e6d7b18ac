using System.Collections.Concurrent;

namespace ProtocolBench.LoadTests.Studies;

/// <summary>
/// One entry per create request, by marker: acknowledged (with the id the service returned), refused, or unknown
/// (timed out, cancelled, reset: it may or may not have been committed). The database check compares against it.
/// </summary>
public sealed class CreateLedger(string prefix)
{
    private readonly ConcurrentDictionary<string, (OutcomeKind Kind, bool Definite, int Id)> _entries = new();

    /// <summary>Every marker of this ledger starts with it: the run's prefix (<see cref="CreatedAuthors"/>) and the cell's.</summary>
    public string Prefix { get; } = prefix;

    public IEnumerable<KeyValuePair<string, int>> Acknowledged =>
        _entries.Where(e => e.Value.Kind == OutcomeKind.Ok).Select(e => KeyValuePair.Create(e.Key, e.Value.Id));

    public IEnumerable<string> Refused => _entries.Where(e => e.Value.Kind != OutcomeKind.Ok && e.Value.Definite).Select(e => e.Key);

    public IEnumerable<string> Unknown => _entries.Where(e => e.Value.Kind != OutcomeKind.Ok && !e.Value.Definite).Select(e => e.Key);

    public int Count => _entries.Count;

    public void Record(string marker, Outcome outcome, int id = 0) =>
        _entries[marker] = (outcome.Kind, outcome.Definite, id);
}
