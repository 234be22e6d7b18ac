namespace ProtocolBench.Lab.Statistics;

/// <summary>
/// A difference of two sides' times (<c>b − a</c>, nanoseconds) measured together pair by pair, with its 95 % interval:
/// the mean of the pairs' differences and Student's t over the pairs.
/// </summary>
public sealed record DifferenceInterval(double Difference, double Low, double High, int Values)
{
    public bool HasInterval => double.IsFinite(Low) && double.IsFinite(High);

    /// <summary>"1.23 ms ± 0.11 ms" (the interval is symmetric).</summary>
    public override string ToString() => HasInterval ? $"{Format.Time(Difference)} ± {Format.Time((High - Low) / 2)}" : Format.Time(Difference);

    public static DifferenceInterval Paired(IReadOnlyList<double> a, IReadOnlyList<double> b)
    {
        if (a.Count != b.Count)
        {
            throw new ArgumentException($"Paired values need the same count on both sides ({a.Count} and {b.Count}).");
        }

        var (mean, half) = Statistic.MeanAndHalfWidth([.. a.Zip(b, (x, y) => y - x)]);
        return new(mean, mean - half, mean + half, a.Count);
    }
}
