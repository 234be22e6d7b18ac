namespace ProtocolBench.LoadTests.Studies;

/// <summary>Latency figures of one histogram, in milliseconds.</summary>
public sealed record Latency(long Count, double MeanMs, double P50Ms, double P90Ms, double P95Ms, double P99Ms, double MaxMs)
{
    public static Latency From(HistogramBase h) => h.TotalCount == 0
        ? new Latency(0, double.NaN, double.NaN, double.NaN, double.NaN, double.NaN, double.NaN)
        : new Latency(
            h.TotalCount,
            h.GetMean() / 1000,
            h.GetValueAtPercentile(50) / 1000.0,
            h.GetValueAtPercentile(90) / 1000.0,
            h.GetValueAtPercentile(95) / 1000.0,
            h.GetValueAtPercentile(99) / 1000.0,
            h.GetMaxValue() / 1000.0);

    /// <summary>
    /// The figures of every time itself (µs), not of a histogram's buckets: a percentile is the smallest time that at least
    /// that share of the times do not exceed (the nearest rank, as HdrHistogram reads its buckets).
    /// </summary>
    public static Latency FromMicros(IReadOnlyList<long> micros)
    {
        if (micros.Count == 0)
        {
            return new Latency(0, double.NaN, double.NaN, double.NaN, double.NaN, double.NaN, double.NaN);
        }

        var sorted = micros.Order().ToArray();
        double At(double percentile) => sorted[Math.Max(0, (int)Math.Ceiling(percentile * sorted.Length / 100) - 1)] / 1000.0;
        return new Latency(sorted.Length, sorted.Average() / 1000, At(50), At(90), At(95), At(99), sorted[^1] / 1000.0);
    }
}
