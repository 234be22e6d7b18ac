namespace ProtocolBench.LoadTests.Studies;

/// <summary>One endpoint of the driver check: the tool's and our requests per second over alternating rounds.</summary>
public sealed record DriverComparison(
    string Endpoint,
    string Tool,
    string ToolCommand,
    int Users,
    int Connections,
    double DurationSeconds,
    IReadOnlyList<DriverRound> Rounds,
    string? Skipped)
{
    public double Ours => Rounds.Count == 0 ? double.NaN : Rounds.Average(r => r.OursPerSecond);

    public double Theirs => Rounds.Count == 0 ? double.NaN : Rounds.Average(r => r.TheirsPerSecond);

    public double Ratio => Ours / Theirs;
}
