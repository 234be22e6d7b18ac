namespace ProtocolBench.Benchmarks.Reporting;

/// <summary>
/// Two sides of a row as "What decides each verdict" compares them: their cells, their parts over the whole run, and
/// their parts round by round, from which an estimate under other conditions gets its interval the way a measured
/// ratio does (paired over the rounds).
/// </summary>
/// <param name="Design">The run's rounds, which set the confidence of every interval.</param>
public sealed record Comparison(
    Scenario Scenario, Transport Transport, CellResult First, CellResult Second, VerdictParts Parts, IReadOnlyList<VerdictParts> Rounds, RoundDesign Design)
{
    /// <summary>The run's own verdict on the two sides.</summary>
    public Verdict Here
    {
        get
        {
            var (a, b) = Timed.Pairs(First, Second);
            return Verdict.Of(Parts.A.Name, Parts.B.Name, Design.Paired(a, b));
        }
    }

    /// <summary>
    /// The verdict the parts predict on a link of <paramref name="bitsPerSecond"/> (null: loopback) with or without a new
    /// connection per request; null when the run's parts give no estimate (<see cref="VerdictParts.RatioUnder"/>), or a
    /// round lacks a part or leaves a side no time.
    /// </summary>
    public Verdict? Under(long? bitsPerSecond, bool newConnections)
    {
        if (Parts.RatioUnder(bitsPerSecond, newConnections) is null)
        {
            return null;
        }

        var estimates = Rounds.Select(parts => parts.HasPartsFor(newConnections)
            ? (parts.TimeOf(parts.A, bitsPerSecond, newConnections), parts.TimeOf(parts.B, bitsPerSecond, newConnections))
            : ((double A, double B)?)null).ToList();
        if (estimates.Count == 0 || estimates.Any(e => e is not { A: > 0, B: > 0 }))
        {
            return null;
        }

        return Verdict.Of(Parts.A.Name, Parts.B.Name, Design.Paired([.. estimates.Select(e => e!.Value.A)], [.. estimates.Select(e => e!.Value.B)]));
    }

    /// <summary>Whether the verdict under those conditions differs from the run's (another winner, or a winner lost or gained).</summary>
    public bool Flips(long? bitsPerSecond, bool newConnections) => Under(bitsPerSecond, newConnections) is { } estimate && estimate.Says != Here.Says;
}
