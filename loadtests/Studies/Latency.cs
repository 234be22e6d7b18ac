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
}
