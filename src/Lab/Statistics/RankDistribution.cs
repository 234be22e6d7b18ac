using Perfolizer.Mathematics.SignificanceTesting.MannWhitney;

namespace ProtocolBench.Lab.Statistics;

/// <summary>The Mann–Whitney U statistic's distribution under no difference, as Perfolizer computes it.</summary>
public static class RankDistribution
{
    /// <summary>Up to this many values in all the distribution is exact (Löffler's recurrence); past it, Edgeworth's expansion.</summary>
    public const int ExactUpTo = 65;

    /// <summary>P(U &lt; u) for samples of n and m values with no difference between them.</summary>
    public static double Below(int n, int m, int u) =>
        (n + m <= ExactUpTo ? (IMannWhitneyCdf)MannWhitneyLoefflerExactCdf.Instance : MannWhitneyEdgeworthApproxCdf.Instance).Cdf(n, m, u);

    /// <summary>
    /// The largest k with P(U &lt; k) ≤ <paramref name="tail"/>: the interval from the k-th smallest to the k-th largest
    /// pairwise difference misses the truth at most twice that often. 0 when the samples are too small for the tail.
    /// </summary>
    public static int LowerRank(int n, int m, double tail)
    {
        var (low, high) = (0, n * m / 2 + 1);
        while (high - low > 1)
        {
            var middle = (low + high) / 2;
            (low, high) = Below(n, m, middle) <= tail ? (middle, high) : (low, middle);
        }

        return low;
    }
}
