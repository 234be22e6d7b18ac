namespace ProtocolBench.LoadTests.Studies;

/// <summary>One step of the open-loop rate sweep: requests sent on a fixed schedule at one offered rate, and what came of them.</summary>
/// <param name="OfferedRate">Requests per second the schedule asked for.</param>
/// <param name="Seconds">From the first intended send to the last answer, or the schedule's length if that is longer.</param>
/// <param name="Latency">Successful requests, from each one's intended send time (coordinated-omission free).</param>
/// <param name="MaxLateMs">The latest a request was sent after its intended time (the driver's own lag, or waiting for a free slot).</param>
/// <param name="Cost">What each request cost the service and the client, or null when the meter was not read.</param>
/// <param name="WithinBound">No request failed and the p99 stayed within the sweep's bound.</param>
public sealed record RateStep(
    double OfferedRate,
    double Seconds,
    TallySummary Requests,
    Latency Latency,
    double MaxLateMs,
    CostPerOp? Cost,
    bool WithinBound)
{
    /// <summary>Successful requests per second over the step.</summary>
    public double Throughput => Seconds > 0 ? Requests.Ok / Seconds : 0;

    /// <summary>The service's CPU time over the step ÷ its duration: how many cores it kept busy.</summary>
    public double ServerCores => Cost is { } c && Seconds > 0 ? c.ServerCpuMicros * c.Operations / 1e6 / Seconds : double.NaN;
}
