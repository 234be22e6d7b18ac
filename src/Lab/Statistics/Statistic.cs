using Perfolizer.Mathematics.Distributions.ContinuousDistributions;
using Perfolizer.Mathematics.QuantileEstimators;

namespace ProtocolBench.Lab.Statistics;

/// <summary>Summary statistics the reports share (Perfolizer's estimators, as BenchmarkDotNet uses).</summary>
public static class Statistic
{
    public static double GeometricMean(IEnumerable<double> values)
    {
        var array = values.ToArray();
        return array.Length == 0 ? double.NaN : Math.Exp(array.Average(v => Math.Log(v)));
    }

    /// <summary>The mean and the half-width of its Student t interval (95 % unless told); NaN half-width with one value.</summary>
    public static (double Mean, double HalfWidth) MeanAndHalfWidth(double[] values, double confidence = RatioInterval.Confidence)
    {
        var mean = values.Average();
        if (values.Length < 2)
        {
            return (mean, double.NaN);
        }

        var error = Math.Sqrt(Variance(values) / values.Length);
        return (mean, error == 0 ? 0 : StudentQuantile(values.Length - 1, confidence) * error);
    }

    public static double Variance(double[] values)
    {
        var mean = values.Average();
        return values.Sum(v => (v - mean) * (v - mean)) / (values.Length - 1);
    }

    /// <summary>The two-sided quantile of Student's t for a confidence (95 % unless told; the normal's with infinitely many degrees of freedom).</summary>
    public static double StudentQuantile(double degreesOfFreedom, double confidence = RatioInterval.Confidence) =>
        double.IsPositiveInfinity(degreesOfFreedom)
            ? NormalDistribution.Standard.Quantile(1 - (1 - confidence) / 2)
            : new StudentDistribution(degreesOfFreedom).Quantile(1 - (1 - confidence) / 2);

    /// <summary>
    /// The chance that Fisher's F with these degrees of freedom is at least <paramref name="f"/>, through the beta
    /// distribution (Perfolizer has no F): F = (d2 ÷ d1) X ÷ (1 − X) for X ~ Beta(d1 ÷ 2, d2 ÷ 2).
    /// </summary>
    public static double FisherUpperTail(double f, double numeratorDegrees, double denominatorDegrees) =>
        f <= 0 ? 1
        : double.IsPositiveInfinity(f) ? 0
        : 1 - new BetaDistribution(numeratorDegrees / 2, denominatorDegrees / 2).Cdf(numeratorDegrees * f / (numeratorDegrees * f + denominatorDegrees));

    /// <summary>A percentile (0–100) by the same estimator as BenchmarkDotNet's (Hyndman–Fan type 7); NaN with no values.</summary>
    public static double Percentile(IEnumerable<double> values, double percentile)
    {
        var array = values.ToArray();
        return array.Length == 0 ? double.NaN : SimpleQuantileEstimator.Instance.Quantile(new Pragmastat.Sample(array), percentile / 100);
    }

    public static double Median(IEnumerable<double> values)
    {
        var array = values.ToArray();
        return array.Length == 0 ? double.NaN : SimpleQuantileEstimator.Instance.Median(new Pragmastat.Sample(array));
    }
}
