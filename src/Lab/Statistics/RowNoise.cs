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
/// intervals are too narrow and the others' a little too wide (docs/methodology.md, "Ratios with intervals"), so a row's
/// cells are checked first (<see cref="Noisier"/>): a cell that moves more than its row mates is left out of the row's
/// noise and its pairs are judged on their own variance.
/// </remarks>
public sealed record RowNoise(double Variance, int DegreesOfFreedom, int Cells, int Rounds)
{
    /// <summary>
    /// The level of the check for a noisier cell: the chance that a row whose cells move alike has a given cell flagged.
    /// A flag costs only width (the cell's pairs are judged on their own variance, which is valid either way) and a missed
    /// noisy cell costs validity, so the check leans towards flagging: at 20 % a cell twice as noisy as its row mates
    /// makes a false "faster" at the line 2.3 % of the time instead of 4.5 % (docs/methodology.md, "A cell noisier than its row").
    /// </summary>
    public const double NoisierLevel = 0.20;

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
    /// The cells of a row (indices into <paramref name="times"/>) that move more from round to round than the others, each
    /// with how much it moved and its p-value. Cell i is compared with the rest: its log medians minus the mean of the
    /// others' in each round, d_i, have a variance of σ_i² + σ² ÷ (k − 1) where the others' residual estimates σ² alone,
    /// so F = Var(d_i) × (k − 1) ÷ k ÷ s²(others) has Fisher's F distribution with n − 1 and (k − 2)(n − 1) degrees of
    /// freedom when σ_i = σ (the two are independent: d_i takes the others' round means, the residual their deviations
    /// from them). A cell is flagged when its F is beyond the <paramref name="level"/> upper quantile: a Cochran-type
    /// check with an exact null distribution. It needs three cells and two rounds.
    /// </summary>
    public static IReadOnlyList<NoisyCell> Noisier(IReadOnlyList<IReadOnlyList<double>> times, double level = NoisierLevel)
    {
        var (k, n) = (times.Count, times.Count == 0 ? 0 : times[0].Count);
        if (k < 3 || n < 2 || times.Any(t => t.Count != n))
        {
            return [];
        }

        var logs = times.Select(t => t.Select(x => Math.Log(x)).ToArray()).ToArray();
        var noisy = new List<NoisyCell>();
        for (var i = 0; i < k; i++)
        {
            var others = Enumerable.Range(0, k).Where(j => j != i).ToList();
            var d = Enumerable.Range(0, n).Select(r => logs[i][r] - others.Average(j => logs[j][r])).ToArray();
            var spread = Statistic.Variance(d);
            var rest = Of([.. others.Select(j => times[j])])!;
            var own = spread * (k - 1) / k;
            var f = own == 0 ? 0 : rest.Variance == 0 ? double.PositiveInfinity : own / rest.Variance;
            var p = Statistic.FisherUpperTail(f, n - 1, rest.DegreesOfFreedom);
            if (p < level)
            {
                noisy.Add(new NoisyCell(i, Math.Sqrt(Math.Max(0, spread - rest.Variance / (k - 1))), Math.Sqrt(rest.Variance), p, n));
            }
        }

        return noisy;
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
        return new(Math.Exp(mean), Math.Exp(mean - half), Math.Exp(mean + half), a.Count, $"t over rounds, the row's noise ({Cells} cells, {DegreesOfFreedom} df)")
        {
            LogError = Math.Sqrt(2 * Variance / a.Count),
            ConfidenceLevel = confidence,
        };
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
