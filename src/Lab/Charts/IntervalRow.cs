namespace ProtocolBench.Lab.Charts;

/// <summary>A labelled row of interval marks on the chart's shared ratio scale.</summary>
public sealed record IntervalRow(string Label, IReadOnlyList<IntervalMark> Marks);
