namespace ProtocolBench.LoadTests.Studies;

/// <summary>One cell of the paced study (scenario, protocol, transport): its latencies, bytes, tally, nothing-lost check and every sample.</summary>
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
    long BytesSent,
    long BytesReceived,
    TallySummary Requests,
    NothingLostResult? NothingLost,
    IReadOnlyList<PacedSample> Samples)
{
    public bool Measured => Requests.Issued > 0;
}
