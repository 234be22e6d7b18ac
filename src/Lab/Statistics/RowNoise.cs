namespace ProtocolBench.Lab.Statistics;

/// <summary>
/// How much a row's cells move from round to round once what a round does to all of them alike is taken out: the
/// residual variance of the logarithms of their rounds' medians in the two-way layout cell × round (rounds as blocks,
/// one value per cell and round: the randomised complete block design), over the rounds every cell was measured in,
/// with its (k − 1)(n − 1) degrees of freedom for k cells and n rounds.
/// </summary>
/// <remarks>
/// Every pair of the row is judged against this one variance, not against its own pair's: at three rounds a pair alone
/// has 2 degrees of freedom (t = 4.30 at 95 %) and a row of five protocols has 8 (t = 2.31). For two cells it is the
/// paired t interval exactly. It assumes the cells of a row move alike between rounds; where one moves more, its pairs'
/// intervals are a little too narrow and the others' a little too wide (docs/methodology.md, "Ratios with intervals").
/// </remarks>
public sealed record RowNoise(double Variance, int DegreesOfFreedom, int Cells, int Rounds)
{
    /// <summary>The noise of the rows' cells from their rounds' times, one list per cell over the same rounds; null with fewer than two cells or rounds.</summary>
    public static RowNoise? Of(IReadOnlyList<IReadOnlyList<double>> times)
    {
        var (k, n) = (times.Count, times.Count == 0 ? 0 : times[0].Count);
        if (k < 2 || n < 2 || times.Any(t => t.Count != n))
        {
            return null;
        }

        var logs = times.Select(t => t.Select(x => Math.Log(x)).ToArray()).ToArray();
        var cellMeans = logs.Select(l => l.Average()).ToArray();
        var roundMeans = Enumerable.Range(0, n).Select(r => logs.Average(l => l[r])).ToArray();
        var grand = cellMeans.Average();
        var residuals = from c in Enumerable.Range(0, k)
                        from r in Enumerable.Range(0, n)
                        select logs[c][r] - cellMeans[c] - roundMeans[r] + grand;
        var df = (k - 1) * (n - 1);
        return new(residuals.Sum(e => e * e) / df, df, k, n);
    }

    /// <summary>
    /// b's time ÷ a's for two of the row's cells, paired round by round: the geometric mean of their rounds' ratios, and
    /// a t interval whose spread is the row's (the variance of one round's log ratio is twice the residual variance).
    /// </summary>
    public RatioInterval Ratio(IReadOnlyList<double> a, IReadOnlyList<double> b, double confidence = RatioInterval.Confidence)
    {
        if (a.Count != b.Count)
        {
            throw new ArgumentException($"Paired values need the same count on both sides ({a.Count} and {b.Count}).");
        }

        var mean = a.Zip(b, (x, y) => Math.Log(y / x)).Average();
        var half = HalfWidth(a.Count, DegreesOfFreedom, confidence);
        return new(Math.Exp(mean), Math.Exp(mean - half), Math.Exp(mean + half), a.Count, $"t over rounds, the row's noise ({Cells} cells, {DegreesOfFreedom} df)");
    }

    /// <summary>The degrees of freedom this row's noise has at <paramref name="rounds"/> rounds: (k − 1)(n − 1).</summary>
    public int DegreesOfFreedomAt(int rounds) => (Cells - 1) * (rounds - 1);

    /// <summary>
    /// Half the width of a pair's log-ratio interval over <paramref name="rounds"/> rounds at this noise: t × √(2 s² ÷ n),
    /// t from <paramref name="degreesOfFreedom"/> at <paramref name="confidence"/>.
    /// </summary>
    public double HalfWidth(int rounds, int degreesOfFreedom, double confidence) =>
        Variance == 0 ? 0 : Statistic.StudentQuantile(degreesOfFreedom, confidence) * Math.Sqrt(2 * Variance / rounds);
}
