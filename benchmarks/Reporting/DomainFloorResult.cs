namespace ProtocolBench.Benchmarks.Reporting;

/// <summary>An operation's domain floor: the Shared.Domain operation in process, without any protocol, over all rounds.</summary>
public sealed record DomainFloorResult(Scenario Scenario, IReadOnlyList<RoundResult> Rounds) : Timed(Rounds);
