namespace ProtocolBench.Lab.Statistics;

/// <summary>
/// A cell of a row that moved more from round to round than its row mates (<see cref="RowNoise.Noisier"/>): its index in
/// the row, its residual SD a round (log scale, as its movement would be were it alone) against the others', the
/// check's p-value and the rounds it was checked over.
/// </summary>
public sealed record NoisyCell(int Index, double Moved, double OthersMoved, double P, int Rounds);
