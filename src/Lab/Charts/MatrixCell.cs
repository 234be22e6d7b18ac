namespace ProtocolBench.Lab.Charts;

/// <summary>One cell of a matrix (<see cref="SvgMatrix"/>).</summary>
/// <param name="Text">What the cell says (a time).</param>
/// <param name="Ratio">Its value ÷ the row's lowest: the colour, on a log scale; NaN draws the cell grey.</param>
/// <param name="Tier">Its tier in the row's ranking, 1 the best (framed); 0 for none (one round, or not measured).</param>
/// <param name="Detail">The tooltip.</param>
public sealed record MatrixCell(string Text, double Ratio, int Tier, string Detail);
