namespace ProtocolBench.Lab.Charts;

/// <summary>One row of a matrix (<see cref="SvgMatrix"/>).</summary>
/// <param name="Group">The rows' group (an operation): named once, above its first row, with a line between groups.</param>
/// <param name="Label">The row within its group (a transport).</param>
/// <param name="Cells">One per column; null for a column the row does not have.</param>
/// <param name="Ranking">The row's order in words, beside the cells.</param>
/// <param name="Note">A second, smaller line under the ranking, or null.</param>
public sealed record MatrixRow(string Group, string Label, IReadOnlyList<MatrixCell?> Cells, string Ranking, string? Note);
