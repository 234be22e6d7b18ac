namespace ProtocolBench.Lab.Statistics;

/// <summary>
/// A ratio of two sides' times (<c>b ÷ a</c>: above 1 when a is faster) with its 95 % confidence interval.
/// Rounds' ratios are paired with Student's t on the logarithms, symmetric on a log scale (a ratio and its inverse have
/// the same evidence) and needing no more than two values per side; two samples of requests are ranked
/// (<see cref="Ranked"/>).
/// </summary>
public sealed record RatioInterval(double Ratio, double Low, double High, int Values, string Method)
{
    public const double Confidence = 0.95;

    public bool HasInterval => double.IsFinite(Low) && double.IsFinite(High);

    /// <summary>The method of <see cref="Paired"/>: a pair judged on its own variance.</summary>
    public const string PairedMethod = "paired t over rounds";

    /// <summary>The standard error of the ratio's logarithm, the spread the interval was made from; NaN where it is not known.</summary>
    public double LogError { get; init; } = double.NaN;

    /// <summary>The confidence the interval was made at; NaN where it is not known.</summary>
    public double ConfidenceLevel { get; init; } = double.NaN;

    /// <summary>The same comparison seen from the other side (<c>a ÷ b</c>).</summary>
    public RatioInterval Inverse() => this with { Ratio = 1 / Ratio, Low = 1 / High, High = 1 / Low };

    public override string ToString() => HasInterval ? $"{Format.Ratio(Ratio)} [{Format.Interval(Low, High)}]" : Format.Ratio(Ratio);

    /// <summary>
    /// From times measured together, pair by pair (<c>a[i]</c> and <c>b[i]</c> in the same round): the geometric mean
    /// of the ratios <c>b[i] ÷ a[i]</c>, and a paired t interval over the pairs. What hits both sides of a pair alike
    /// (the machine's drift, a round's luck) cancels; what differs between pairs is the variance the interval reports.
    /// </summary>
    /// <param name="confidence">The interval's confidence: 95 %, or more where a design looks several times (<see cref="RoundDesign"/>).</param>
    public static RatioInterval Paired(IReadOnlyList<double> a, IReadOnlyList<double> b, double confidence = Confidence)
    {
        if (a.Count != b.Count)
        {
            throw new ArgumentException($"Paired values need the same count on both sides ({a.Count} and {b.Count}).");
        }

        var logs = a.Zip(b, (x, y) => Math.Log(y / x)).ToArray();
        var (mean, half) = Statistic.MeanAndHalfWidth(logs, confidence);
        return new(Math.Exp(mean), Math.Exp(mean - half), Math.Exp(mean + half), logs.Length, PairedMethod)
        {
            LogError = logs.Length < 2 ? double.NaN : Math.Sqrt(Statistic.Variance(logs) / logs.Length),
            ConfidenceLevel = confidence,
        };
    }

    /// <summary>
    /// From two samples not measured together (the requests of two paced cells, sent one cell after the other): the
    /// Hodges–Lehmann ratio, the median of every <c>b[j] ÷ a[i]</c>, with the distribution-free interval of the
    /// Mann–Whitney test (Moses): the k-th smallest and k-th largest of those ratios, k from the distribution of the
    /// test's U. Every request counts, not a block's median; it assumes only that each sample's times come from one
    /// distribution and the two differ by a factor. Ties (times in whole milliseconds) can only widen it: the ends are
    /// closed, so it covers at least as often as its confidence says. Times must be positive; otherwise no interval.
    /// </summary>
    public static RatioInterval Ranked(IReadOnlyList<double> a, IReadOnlyList<double> b, double confidence = Confidence)
    {
        const string method = "Hodges–Lehmann, Mann–Whitney interval";
        if (a.Count == 0 || b.Count == 0 || a.Concat(b).Any(t => !(t > 0) || !double.IsFinite(t)))
        {
            return new(double.NaN, double.NaN, double.NaN, Math.Min(a.Count, b.Count), method);
        }

        var ratios = new double[a.Count * b.Count];
        var i = 0;
        foreach (var x in a)
        {
            foreach (var y in b)
            {
                ratios[i++] = y / x;
            }
        }

        Array.Sort(ratios);
        var median = ratios.Length % 2 == 1 ? ratios[ratios.Length / 2] : Math.Sqrt(ratios[ratios.Length / 2 - 1] * ratios[ratios.Length / 2]);
        var k = RankDistribution.LowerRank(a.Count, b.Count, (1 - confidence) / 2);
        return k == 0
            ? new(median, double.NaN, double.NaN, Math.Min(a.Count, b.Count), method)
            : new(median, ratios[k - 1], ratios[^k], Math.Min(a.Count, b.Count), method) { ConfidenceLevel = confidence };
    }
}
