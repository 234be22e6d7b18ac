namespace ProtocolBench.Lab.Charts;

/// <summary>A horizontal line across a line chart at <paramref name="Value"/>, labelled (e.g. the p99 bound of the rate sweep).</summary>
public sealed record Threshold(double Value, string Label);
