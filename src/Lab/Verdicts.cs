using Perfolizer.Mathematics.Distributions.ContinuousDistributions;
using Perfolizer.Mathematics.QuantileEstimators;

namespace ProtocolBench.Lab;

/// <summary>
/// A ratio of two sides' times (<c>b ÷ a</c>: above 1 when a is faster) with its 95 % confidence interval.
/// The intervals are Student's t on the logarithms, so they are symmetric on a log scale (a ratio and its inverse
/// have the same evidence) and need no more than two values per side.
/// </summary>
public sealed record RatioInterval(double Ratio, double Low, double High, int Values, string Method)
{
    public const double Confidence = 0.95;

    public bool HasInterval => double.IsFinite(Low) && double.IsFinite(High);

    /// <summary>The same comparison seen from the other side (<c>a ÷ b</c>).</summary>
    public RatioInterval Inverse() => this with { Ratio = 1 / Ratio, Low = 1 / High, High = 1 / Low };

    public override string ToString() => HasInterval ? $"{Format.Ratio(Ratio)} [{Format.Interval(Low, High)}]" : Format.Ratio(Ratio);

    /// <summary>
    /// From times measured together, pair by pair (<c>a[i]</c> and <c>b[i]</c> in the same round): the geometric mean
    /// of the ratios <c>b[i] ÷ a[i]</c>, and a paired t interval over the pairs. What hits both sides of a pair alike
    /// (the machine's drift, a round's luck) cancels; what differs between pairs is the variance the interval reports.
    /// </summary>
    public static RatioInterval Paired(IReadOnlyList<double> a, IReadOnlyList<double> b)
    {
        if (a.Count != b.Count)
        {
            throw new ArgumentException($"Paired values need the same count on both sides ({a.Count} and {b.Count}).");
        }

        var logs = a.Zip(b, (x, y) => Math.Log(y / x)).ToArray();
        var (mean, half) = Statistic.MeanAndHalfWidth(logs);
        return new(Math.Exp(mean), Math.Exp(mean - half), Math.Exp(mean + half), logs.Length, "paired t over rounds");
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
        return new(Math.Exp(difference), Math.Exp(difference - half), Math.Exp(difference + half), Math.Min(logA.Length, logB.Length), "Welch t");
    }
}

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

/// <summary>
/// The one verdict rule of both commands: of two sides, the faster is named only when the whole 95 % interval of the
/// ratio (slower ÷ faster) lies at or beyond 1 + <see cref="PracticalDifference"/>: with 95 % confidence it is at least
/// that much faster, so the difference both holds and matters. Otherwise there is no clear winner. Without an interval
/// (fewer than two rounds) there is no verdict. (Two default runs back to back agreed on 30 of 32 rows under this rule,
/// 23 of 32 when the interval only had to exclude 1 and the ratio alone had to pass 10 %.)
/// </summary>
/// <param name="Says">The faster side's name, <see cref="NoClearWinner"/> or <see cref="Untested"/>.</param>
/// <param name="Faster">The side with the lower time, named or not.</param>
/// <param name="Margin">Slower ÷ faster, at least 1, with its interval.</param>
public sealed record Verdict(string Says, string Faster, string Slower, RatioInterval Margin)
{
    /// <summary>Bolanowski et al. called 22 vs 21 ms and 76 vs 82 ms "both" and 75 vs 66 ms a gRPC win: about a 10 % line.</summary>
    public const double PracticalDifference = 0.10;

    public const string NoClearWinner = "no clear winner";

    /// <summary>How the papers write "no clear winner".</summary>
    public const string Both = "both";

    public const string Untested = "no verdict (one round)";

    public bool Decided => Says != Untested;

    public bool Named => Says != NoClearWinner && Says != Untested;

    /// <summary>Same as a paper's verdict: the same winner, or neither names one ("both").</summary>
    public bool Matches(string paper) => Decided && (Named ? Says == paper : paper == Both);

    /// <param name="a">One side's name.</param>
    /// <param name="b">The other side's.</param>
    /// <param name="bOverA">b's time ÷ a's time with its interval.</param>
    public static Verdict Of(string a, string b, RatioInterval bOverA)
    {
        var (faster, slower, margin) = bOverA.Ratio >= 1 ? (a, b, bOverA) : (b, a, bOverA.Inverse());
        if (!margin.HasInterval)
        {
            return new(Untested, faster, slower, margin);
        }

        var named = margin.Low >= 1 + PracticalDifference;
        return new(named ? faster : NoClearWinner, faster, slower, margin);
    }

    public override string ToString() => Named
        ? $"{Says} ({Slower} ÷ {Says} {Margin})"
        : Decided ? $"{NoClearWinner} ({Slower} ÷ {Faster} {Margin})" : Says;
}

/// <summary>Summary statistics the reports share (Perfolizer's estimators, as BenchmarkDotNet uses).</summary>
public static class Statistic
{
    public static double GeometricMean(IEnumerable<double> values)
    {
        var array = values.ToArray();
        return array.Length == 0 ? double.NaN : Math.Exp(array.Average(v => Math.Log(v)));
    }

    /// <summary>The mean and the half-width of its 95 % Student t interval; NaN half-width with one value.</summary>
    public static (double Mean, double HalfWidth) MeanAndHalfWidth(double[] values)
    {
        var mean = values.Average();
        if (values.Length < 2)
        {
            return (mean, double.NaN);
        }

        var error = Math.Sqrt(Variance(values) / values.Length);
        return (mean, error == 0 ? 0 : StudentQuantile(values.Length - 1) * error);
    }

    public static double Variance(double[] values)
    {
        var mean = values.Average();
        return values.Sum(v => (v - mean) * (v - mean)) / (values.Length - 1);
    }

    /// <summary>The two-sided 95 % quantile of Student's t (the normal's with infinitely many degrees of freedom).</summary>
    public static double StudentQuantile(double degreesOfFreedom) =>
        double.IsPositiveInfinity(degreesOfFreedom)
            ? 1.959963984540054
            : new StudentDistribution(degreesOfFreedom).Quantile(1 - (1 - RatioInterval.Confidence) / 2);

    public static double Median(IEnumerable<double> values)
    {
        var array = values.ToArray();
        return array.Length == 0 ? double.NaN : SimpleQuantileEstimator.Instance.Median(new Pragmastat.Sample(array));
    }
}
