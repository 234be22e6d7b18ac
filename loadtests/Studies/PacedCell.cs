using ProtocolBench.Lab.Statistics;

namespace ProtocolBench.LoadTests.Studies;

/// <summary>
/// One cell of the paced study (scenario, protocol, transport): its latencies, bytes (null when not read: through another
/// client stack), tally, nothing-lost check and every sample.
/// </summary>
public sealed record PacedCell(
    Scenario Scenario,
    Protocol Protocol,
    Transport Transport,
    double Rate,
    int Count,
    string Status,
    double MedianMs,
    double MeanMs,
    double P95Ms,
    double MinMs,
    double MaxMs,
    double MaxLateMs,
    long? BytesSent,
    long? BytesReceived,
    TallySummary Requests,
    NothingLostResult? NothingLost,
    IReadOnlyList<PacedSample> Samples)
{
    public bool Measured => Requests.Issued > 0;

    /// <summary>The cell's figures from its samples: latencies of the successful ones, the latest start of any.</summary>
    public static PacedCell Of(
        Scenario scenario, Protocol protocol, Transport transport, double rate, int count, string status, IReadOnlyList<PacedSample> samples,
        (long Sent, long Received)? bytes, TallySummary requests, NothingLostResult? nothingLost)
    {
        var ok = samples.Where(s => s.Outcome == OutcomeKind.Ok).Select(s => s.LatencyMs).Order().ToArray();
        return new PacedCell(
            scenario, protocol, transport, rate, count, status,
            Statistic.Median(ok), ok.Length == 0 ? double.NaN : ok.Average(), Statistic.Percentile(ok, 95),
            ok.Length == 0 ? double.NaN : ok[0], ok.Length == 0 ? double.NaN : ok[^1],
            samples.Count == 0 ? 0 : samples.Max(s => s.StartedMs - s.ScheduledMs),
            bytes?.Sent, bytes?.Received, requests, nothingLost, samples);
    }

    /// <summary>A cell that was not measured, and why.</summary>
    public static PacedCell Empty(Scenario scenario, Protocol protocol, Transport transport, double rate, int count, string status) =>
        Of(scenario, protocol, transport, rate, count, status, [], (0, 0), new RequestTally().Summary(), null);
}
