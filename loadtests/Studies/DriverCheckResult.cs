namespace ProtocolBench.LoadTests.Studies;

/// <summary>Our driver against wrk and h2load on one scenario (one row per endpoint), and its latency at a fixed rate against hey and h2load.</summary>
public sealed record DriverCheckResult(Scenario Scenario, string Pinning, IReadOnlyList<DriverComparison> Rows, IReadOnlyList<LatencyComparison>? Latency = null);
