namespace ProtocolBench.LoadTests.Studies;

/// <summary>One round of the latency check: ours and the tool's p50, p99 and mean (ms), our tally, the tool's own summary.</summary>
public sealed record LatencyRound(
    double OursP50, double OursP99, double OursMean, double TheirsP50, double TheirsP99, double TheirsMean, TallySummary OurTally, string TheirSummary);
