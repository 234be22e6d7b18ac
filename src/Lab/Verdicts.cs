using Perfolizer.Mathematics.SignificanceTesting;
using Perfolizer.Mathematics.SignificanceTesting.Base;
using Perfolizer.Mathematics.SignificanceTesting.MannWhitney;
using Perfolizer.Metrology;
using Pragmastat;

namespace ProtocolBench.Lab;

/// <summary>The outcome of testing a difference between two sets of measurements.</summary>
public sealed record Significance(string Test, double? P)
{
    public const double Alpha = 0.05;

    public static readonly Significance NotTestable = new("none (1 measurement per cell)", null);

    public bool IsSignificant => P is < Alpha;

    public override string ToString() => P is { } p ? $"{Format.P(p)}, {Test}" : Test;

    /// <summary>
    /// Two-sided test (Perfolizer, as BenchmarkDotNet uses): Mann–Whitney U when both sides have 5+ measurements;
    /// Welch's t-test for 2–4 (a short run), where a rank test cannot reach p &lt; 0.05; none below that.
    /// </summary>
    public static Significance Compare(IReadOnlyList<double> a, IReadOnlyList<double> b)
    {
        if (a.Count >= 5 && b.Count >= 5)
        {
            return new("Mann–Whitney U", MannWhitneyTest.Instance.Perform(new Sample([.. a]), new Sample([.. b]), AlternativeHypothesis.TwoSides, Threshold.Zero).PValue);
        }

        return a.Count >= 2 && b.Count >= 2
            ? new("Welch's t-test", WelchTest.Instance.Perform(new Sample([.. a]), new Sample([.. b]), AlternativeHypothesis.TwoSides, Threshold.Zero).PValue)
            : NotTestable;
    }
}

/// <summary>
/// The one verdict rule of both commands: of two sides, the faster wins when its median is at least
/// <see cref="PracticalDifference"/> faster and the difference is significant; otherwise "both". With too few
/// measurements to test, there is no verdict.
/// </summary>
public sealed record Verdict(string Says, double Difference, Significance Significance)
{
    /// <summary>Bolanowski et al. called 22 vs 21 ms and 76 vs 82 ms "both" and 75 vs 66 ms a gRPC win: about a 10 % line.</summary>
    public const double PracticalDifference = 0.10;

    public const string Both = "both";

    public const string Untested = "no verdict (too few samples)";

    public bool Decided => Says != Untested;

    /// <param name="a">One side's name, median and measurements (lower is faster).</param>
    /// <param name="b">The other side's.</param>
    public static Verdict Of((string Name, double Median, IReadOnlyList<double> Samples) a, (string Name, double Median, IReadOnlyList<double> Samples) b)
    {
        var (fast, slow) = a.Median <= b.Median ? (a, b) : (b, a);
        var difference = slow.Median / fast.Median - 1;
        var significance = Significance.Compare(fast.Samples, slow.Samples);
        if (significance.P is null)
        {
            return new(Untested, difference, significance);
        }

        return new(difference >= PracticalDifference && significance.IsSignificant ? fast.Name : Both, difference, significance);
    }
}
