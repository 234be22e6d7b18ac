namespace ProtocolBench.Lab.Statistics;

/// <summary>
/// A row's cells checked for one that moves more than its row mates (<see cref="RowNoise.Noisier"/>): the interval of any
/// two cells, judged against the row's noise or, where either is noisier, on the pair's own variance.
/// </summary>
/// <remarks>
/// The row's noise keeps the noisier cells: left out, it would be the noise of the cells that happened to look calm,
/// too small whenever the check flags a cell that is not noisier (one in five at its level), and the other pairs' false
/// claims rose above 2.5 % in the simulation of docs/methodology.md. Kept, a truly noisier cell widens the other pairs'
/// intervals a little, which is safe. A cell flagged at a sequential design's first look stays flagged: its pairs were
/// measured on for what their own variance could tell, and read at the last look on the row's noise they would be judged
/// on a spread the check had found too small for them.
/// </remarks>
public sealed record CheckedRow(RowNoise? Noise, IReadOnlyList<NoisyCell> Noisy)
{
    /// <summary>Checks the row's cells from their rounds' times, one list per cell over the same rounds.</summary>
    public static CheckedRow Of(IReadOnlyList<IReadOnlyList<double>> times) => new(RowNoise.Of(times), RowNoise.Noisier(times));

    /// <summary>This check with the cells an earlier one flagged (indices into this row) flagged as well.</summary>
    public CheckedRow Keeping(IEnumerable<NoisyCell> earlier) => this with { Noisy = [.. Noisy, .. earlier.Where(e => !IsNoisy(e.Index))] };

    public bool IsNoisy(int cell) => Noisy.Any(n => n.Index == cell);

    /// <summary>
    /// Cell b's time ÷ cell a's from their paired rounds' times <paramref name="x"/> and <paramref name="y"/>, at the
    /// confidence <paramref name="design"/> reads that many rounds at (<see cref="RoundDesign.ConfidenceAt"/>).
    /// </summary>
    public RatioInterval Ratio(int a, int b, IReadOnlyList<double> x, IReadOnlyList<double> y, RoundDesign design) =>
        Noise is { } noise && !IsNoisy(a) && !IsNoisy(b)
            ? noise.Ratio(x, y, design.ConfidenceAt(x.Count))
            : RatioInterval.Paired(x, y, design.ConfidenceAt(x.Count, noisierCell: true));
}
