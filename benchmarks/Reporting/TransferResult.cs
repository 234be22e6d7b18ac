namespace ProtocolBench.Benchmarks.Reporting;

/// <summary>A binary file's loopback transfer: its bytes over a plain TCP socket from the REST service's process, over all rounds.</summary>
public sealed record TransferResult(Scenario Scenario, IReadOnlyList<RoundResult> Rounds) : Timed(Rounds);
