namespace ProtocolBench.Lab.Charts;

/// <summary>One series of a bar chart: a value per group.</summary>
public sealed record BarSeries(string Name, string Colour, IReadOnlyList<double> Values);
