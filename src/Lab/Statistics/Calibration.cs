using Perfolizer.Mathematics.Distributions.ContinuousDistributions;

namespace ProtocolBench.Lab.Statistics;

/// <summary>
/// Whether two runs' intervals are as wide as the runs' differences say they should be: for each ratio measured in both,
/// z = (log A − log B) ÷ √(se_A² + se_B²), which has a standard deviation near 1 when each run's standard error is right
/// (a little above: t with the row's degrees of freedom, 1.07 at 16). Below 1 the intervals are too wide; above, too narrow.
/// </summary>
/// <param name="Sd">The root mean square of the z values (about 0: the runs measure the same ratios).</param>
/// <param name="Low">The low end of its 95 % interval (χ² with N degrees of freedom).</param>
/// <param name="High">The high end.</param>
/// <param name="Ratios">How many ratios it is over.</param>
public sealed record Calibration(double Sd, double Low, double High, int Ratios)
{
    /// <summary>From the same ratios in two runs; null when fewer than two have a standard error in both.</summary>
    public static Calibration? Of(IEnumerable<(RatioInterval A, RatioInterval B)> ratios)
    {
        var z = ratios
            .Where(r => double.IsFinite(r.A.LogError) && double.IsFinite(r.B.LogError) && r.A.LogError + r.B.LogError > 0)
            .Select(r => (Math.Log(r.A.Ratio) - Math.Log(r.B.Ratio)) / Math.Sqrt(r.A.LogError * r.A.LogError + r.B.LogError * r.B.LogError))
            .ToList();
        if (z.Count < 2)
        {
            return null;
        }

        var n = z.Count;
        var sumOfSquares = z.Sum(v => v * v);
        return new(Math.Sqrt(sumOfSquares / n), Math.Sqrt(sumOfSquares / ChiSquareQuantile(n, 0.975)), Math.Sqrt(sumOfSquares / ChiSquareQuantile(n, 0.025)), n);
    }

    /// <summary>χ²'s quantile by Wilson and Hilferty's cube (within 0.5 % from 10 degrees of freedom; Perfolizer has no χ²).</summary>
    private static double ChiSquareQuantile(int degreesOfFreedom, double probability)
    {
        var z = NormalDistribution.Standard.Quantile(probability);
        var k = (double)degreesOfFreedom;
        return k * Math.Pow(1 - 2 / (9 * k) + z * Math.Sqrt(2 / (9 * k)), 3);
    }

    public override string ToString() => FormattableString.Invariant($"calibration: SD {Sd:0.00} [{Low:0.00}–{High:0.00}] over {Ratios} cells");
}
