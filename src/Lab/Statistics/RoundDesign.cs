namespace ProtocolBench.Lab.Statistics;

/// <summary>
/// How many rounds a run measures and when it looks at its rows. Fixed (<c>--rounds N</c>): every row N times, one look
/// at the end, 95 % intervals. Sequential (the default job): every row <see cref="Minimum"/> times, then a look; a row
/// whose pairs are all decided (<see cref="PairState"/>), or whose undecided pairs more rounds could not decide, is not
/// measured again, and the rest are measured up to <see cref="Maximum"/> and read there.
/// </summary>
/// <remarks>
/// Looking at a row twice and stopping at the first look that decides would make a 95 % interval wrong more often than
/// 5 % of the time. The design spends the 5 % over its two looks instead (Bonferroni): 0.5 % at the first
/// (<see cref="FirstLook"/>: a 99.5 % interval), 4.5 % at the last (95.5 %), so the chance that either look's interval
/// misses the truth is at most 5 % whatever the rounds show: the interval a row ends with, read at the confidence of the
/// look it stopped at (<see cref="ConfidenceAt"/>), is a 95 % interval. Most rows are read at the last look, so it gets
/// most of the 5 %; the first only stops the rows whose order is plain. Why this split and two looks:
/// docs/methodology.md, "Rounds that stop". A pair with a cell noisier than its row (<see cref="CheckedRow"/>) is read at the
/// last look at 97 % (<see cref="NoisierLastLook"/>): its first look may have spent more than 0.5 %.
/// </remarks>
public sealed record RoundDesign(int Minimum, int Maximum)
{
    /// <summary>The default job's rounds: every row four times, the cells of pairs more rounds could still decide or give a claim nine times.</summary>
    public static readonly RoundDesign Default = new(4, 9);

    /// <summary>The thorough job's rounds (--job thorough): every row four times, the cells more rounds could still decide or give a claim sixteen times.</summary>
    public static readonly RoundDesign Thorough = new(4, 16);

    /// <summary>What the first look of a sequential design spends of the 5 %: its interval has confidence 99.5 %.</summary>
    public const double FirstLook = 0.005;

    /// <summary>
    /// What the last look spends on a pair with a cell noisier than its row, judged on its own variance: 3 %, an interval
    /// at 97 %. Four rounds give the noisy-cell check little power, so a noisier cell it missed at the first look had its
    /// pairs judged on the row's too small noise there: in the simulation of docs/methodology.md ("A cell noisier than its
    /// row") that look called a pair on the line faster up to 0.6 % of the time instead of 0.25 %. The last look gives up
    /// more than that overspend, and a pair on the line is called faster 2.2 % of the time at most, with a cell one to six
    /// times as noisy as its row mates.
    /// </summary>
    public const double NoisierLastLook = 0.03;

    public static RoundDesign Fixed(int rounds) => new(rounds, rounds);

    public bool Sequential => Maximum > Minimum;

    /// <summary>How many times the design looks at a row: after the minimum and at the maximum; a fixed design once.</summary>
    public int Looks => Sequential ? 2 : 1;

    /// <summary>
    /// The confidence of the interval read after this many rounds: the last look's (95.5 %; 97 % for a pair with a
    /// <paramref name="noisierCell"/>, <see cref="NoisierLastLook"/>) at the maximum, the first look's (99.5 %) before it;
    /// a fixed design's 95 %. A row cut short between the looks (an interrupted run) is read at the first look's confidence.
    /// </summary>
    public double ConfidenceAt(int rounds, bool noisierCell = false) =>
        !Sequential ? RatioInterval.Confidence
        : rounds < Maximum ? 1 - FirstLook
        : noisierCell ? 1 - NoisierLastLook
        : RatioInterval.Confidence + FirstLook;

    /// <summary>The confidence of the last look: the one the rows measured to the maximum are read at.</summary>
    public double LastConfidence => ConfidenceAt(Maximum);

    /// <summary>b's time ÷ a's, paired round by round, with the interval this design gives at this many rounds.</summary>
    public RatioInterval Paired(IReadOnlyList<double> a, IReadOnlyList<double> b) => RatioInterval.Paired(a, b, ConfidenceAt(a.Count));

    /// <summary>
    /// Whether a row measured in this many rounds is measured again: up to the minimum always; at the minimum (the first
    /// look) while a pair is undecided of which more rounds could tell more (<see cref="CouldTellMore"/>); after it, up to the maximum.
    /// </summary>
    public bool MeasuresAgain(int rounds, bool settled, bool couldTellMore = true) =>
        rounds < Minimum || (rounds < Maximum && (rounds > Minimum || (!settled && couldTellMore)));

    /// <summary>
    /// Whether a sequential design stopped a row before the maximum with undecided pairs of none of which more rounds could
    /// tell more (<see cref="CouldTellMore"/>): the row is "on the line".
    /// </summary>
    public bool StopsOnTheLine(int rounds, bool settled, bool couldTellMore) => Sequential && rounds < Maximum && !settled && !couldTellMore;

    /// <summary>
    /// Whether measuring an undecided pair's row up to the maximum could decide it if its ratio stayed where it is: the
    /// pair's interval at the maximum, as wide as the row's noise would make it then, would lie wholly beyond the 10 %
    /// line or wholly within it. A ratio closer to the line than that half-width stays undecided however the rounds fall,
    /// so its row is not measured again for it (stopping for futility: no claim is made, so none can be wrong).
    /// </summary>
    public bool CouldDecide(RatioInterval pair, RowNoise noise) =>
        Math.Abs(Math.Abs(Math.Log(pair.Ratio)) - Math.Log(1 + Verdict.PracticalDifference)) > HalfWidthAtMaximum(noise);

    /// <summary>
    /// Whether measuring an undecided pair's row up to the maximum could tell more of it if its ratio stayed where it is:
    /// decide it (<see cref="CouldDecide"/>), or give a claim to a pair of which nothing is known yet (<see cref="Claim.NothingKnown"/>):
    /// its interval at the maximum would lie above 1, or within 1 ÷ 1.2 and 1.2. A pair on the line that already has a
    /// claim keeps it, read at the first look. A pair with a cell noisier than its row is projected at the row's noise
    /// too: the projection only chooses what to measure, and the pair is read on its own variance whatever it chose
    /// (docs/methodology.md, "Pairs on the line").
    /// </summary>
    public bool CouldTellMore(Verdict pair, RowNoise noise)
    {
        if (CouldDecide(pair.Margin, noise))
        {
            return true;
        }

        if (pair.Claim is not Claim.NothingKnown)
        {
            return false;
        }

        // The interval the pair would have at the maximum were its ratio to stay where it is, and the claim it would carry.
        var (log, half) = (Math.Log(pair.Margin.Ratio), HalfWidthAtMaximum(noise));
        var atMaximum = pair.Margin with { Low = Math.Exp(log - half), High = Math.Exp(log + half) };
        return Verdict.Of(pair.Faster, pair.Slower, atMaximum).Claim is not (null or Claim.NothingKnown);
    }

    /// <summary>Half the width of a pair's log-ratio interval at the maximum, at the row's noise and the last look's confidence.</summary>
    private double HalfWidthAtMaximum(RowNoise noise) => noise.HalfWidth(Maximum, noise.DegreesOfFreedomAt(Maximum), LastConfidence);

    public string Describe() => Sequential
        ? $"{Minimum} to {Maximum} rounds: a look after round {Minimum} (intervals at {ConfidenceAt(Minimum):P1}) stops the rows whose pairs are all decided " +
          $"or whose undecided pairs more rounds could neither decide nor give a claim; the rest are measured {Maximum} times and read at {LastConfidence:P1} (95 % spent over the two looks; " +
          $"{ConfidenceAt(Maximum, noisierCell: true):P0} for a pair with a cell noisier than its row)"
        : $"{Minimum} round{(Minimum == 1 ? "" : "s")} (fixed)";
}
