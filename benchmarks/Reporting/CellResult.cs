namespace ProtocolBench.Benchmarks.Reporting;

/// <summary>One cell: an operation on one protocol and transport, over all rounds.</summary>
public sealed record CellResult(Scenario Scenario, Protocol Protocol, Transport Transport, IReadOnlyList<RoundResult> Rounds, WireSample? Wire)
    : Timed(Rounds);
