namespace ProtocolBench.LoadTests.Studies;

/// <summary>One round of the driver check: ours and the tool's throughput, our tally, the tool's own summary.</summary>
public sealed record DriverRound(double OursPerSecond, double TheirsPerSecond, TallySummary OurTally, string TheirSummary);
