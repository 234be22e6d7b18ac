namespace ProtocolBench.LoadTests.Studies;

/// <summary>
/// One endpoint of the driver check's latency part: our open-loop driver and an independent tool sending at the same fixed
/// rate, alternately, in milliseconds. h2load gives no percentiles, only the mean (NaN where a side has no figure).
/// </summary>
public sealed record LatencyComparison(
    string Endpoint,
    string Tool,
    string ToolCommand,
    double Rate,
    double DurationSeconds,
    IReadOnlyList<LatencyRound> Rounds,
    string? Skipped)
{
    public double OursP50 => Median(r => r.OursP50);

    public double TheirsP50 => Median(r => r.TheirsP50);

    public double OursP99 => Median(r => r.OursP99);

    public double TheirsP99 => Median(r => r.TheirsP99);

    public double OursMean => Median(r => r.OursMean);

    public double TheirsMean => Median(r => r.TheirsMean);

    private double Median(Func<LatencyRound, double> value) => Lab.Statistics.Statistic.Median(Rounds.Select(value).Where(double.IsFinite));
}
