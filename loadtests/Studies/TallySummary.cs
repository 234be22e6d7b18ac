namespace ProtocolBench.LoadTests.Studies;

/// <summary>A snapshot of a <see cref="RequestTally"/>, as the reports and result files show it.</summary>
public sealed record TallySummary(
    long Issued, long Ok, long Failed, long TimedOut, long Cancelled, bool Balanced, IReadOnlyDictionary<string, long> Errors)
{
    public long NotOk => Failed + TimedOut + Cancelled;

    public string ErrorText => Errors.Count == 0 ? "0" : string.Join(", ", Errors.Select(e => $"{e.Key}: {e.Value}"));
}
