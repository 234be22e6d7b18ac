namespace ProtocolBench.LoadTests.Studies;

/// <summary>One paced request: when it was due, when it started and how long it took (ms from the cell's start), and its outcome.</summary>
public sealed record PacedSample(int Index, double ScheduledMs, double StartedMs, double LatencyMs, OutcomeKind Outcome, string? Error);
