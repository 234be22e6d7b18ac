namespace ProtocolBench.Lab.Charts;

/// <summary>One line of a line chart: its points, colour and whether it is dashed (HTTPS).</summary>
public sealed record ChartSeries(string Name, string Colour, bool Dashed, IReadOnlyList<(double X, double Y)> Points);
