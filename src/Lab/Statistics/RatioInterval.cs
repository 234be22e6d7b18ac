namespace ProtocolBench.Lab.Statistics;

/// <summary>
/// A ratio of two sides' times (<c>b ÷ a</c>: above 1 when a is faster) with its 95 % confidence interval.
/// The intervals are Student's t on the logarithms, so they are symmetric on a log scale (a ratio and its inverse
/// have the same evidence) and need no more than two values per side.
/// </summary>
public sealed record RatioInterval(double Ratio, double Low, double High, int Values, string Method)
{
    public const double Confidence = 0.95;

    public bool HasInterval => double.IsFinite(Low) && double.IsFinite(High);

    /// <summary>The standard error of the ratio's logarithm, the spread the interval was made from; NaN where it is not known.</summary>
    public double LogError { get; init; } = double.NaN;

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
        return new(Math.Exp(mean), Math.Exp(mean - half), Math.Exp(mean + half), logs.Length, "paired t over rounds")
        {
            LogError = logs.Length < 2 ? double.NaN : Math.Sqrt(Statistic.Variance(logs) / logs.Length),
        };
    }

    /// <summary>
    /// From values not measured together (blocks of requests sent one side after the other): the ratio of the
    /// geometric means and Welch's t interval of the difference of the mean logarithms.
    /// </summary>
    public static RatioInterval Unpaired(IReadOnlyList<double> a, IReadOnlyList<double> b)
    {
        var (logA, logB) = (a.Select(x => Math.Log(x)).ToArray(), b.Select(x => Math.Log(x)).ToArray());
        var difference = logB.Average() - logA.Average();
        if (logA.Length < 2 || logB.Length < 2)
        {
            return new(Math.Exp(difference), double.NaN, double.NaN, Math.Min(logA.Length, logB.Length), "Welch t");
        }

        var (va, vb) = (Statistic.Variance(logA) / logA.Length, Statistic.Variance(logB) / logB.Length);
        var error = Math.Sqrt(va + vb);
        // Welch–Satterthwaite degrees of freedom; with no spread at all there is nothing to widen.
        var df = error == 0 ? double.PositiveInfinity : Math.Pow(va + vb, 2) / (va * va / (logA.Length - 1) + vb * vb / (logB.Length - 1));
        var half = error == 0 ? 0 : Statistic.StudentQuantile(df) * error;
        return new(Math.Exp(difference), Math.Exp(difference - half), Math.Exp(difference + half), Math.Min(logA.Length, logB.Length), "Welch t")
        {
            LogError = error,
        };
    }
}
