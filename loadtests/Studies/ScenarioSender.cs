namespace ProtocolBench.LoadTests.Studies;

/// <summary>
/// Sends a scenario's requests through its one call (<see cref="Scenario.AttemptAsync"/>) and accounts for each:
/// issued and settled in <see cref="Tally"/>, and, when the scenario creates, recorded in the ledger by its marker.
/// The virtual users and the paced stream both send through it; senders may share a tally (a cell's warm-up passes).
/// </summary>
public sealed class ScenarioSender(Scenario scenario, TimeSpan timeout, CreateLedger? ledger = null, string markerTag = "", RequestTally? tally = null)
{
    // The client's own timeout or deadline fires first; this one also bounds reading a body that stalls.
    private readonly TimeSpan _backstop = timeout + TimeSpan.FromSeconds(1);

    public RequestTally Tally { get; } = tally ?? new();

    /// <summary>The longest a request can take before it is settled.</summary>
    public TimeSpan Backstop => _backstop;

    /// <summary>The name a create writes: the ledger's prefix, this sender's tag and the request's own suffix; empty for reads.</summary>
    public string Marker(string suffix) => scenario.Creates ? $"{ledger?.Prefix}{markerTag}{suffix}" : "";

    public async Task<Attempt> SendAsync(ILibraryOperations client, string marker, CancellationToken stop)
    {
        Tally.Issue();
        var attempt = await scenario.AttemptAsync(client, marker, _backstop, stop).ConfigureAwait(false);
        ledger?.Record(marker, attempt.Outcome, attempt.CreatedId);
        Tally.Settle(attempt.Outcome);
        return attempt;
    }
}
