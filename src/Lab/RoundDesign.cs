namespace ProtocolBench.Lab;

/// <summary>
/// How many rounds a run measures and when it looks at its rows. Fixed (<c>--rounds N</c>): every row N times, one look
/// at the end, 95 % intervals. Sequential (the default job): every row at least <see cref="Minimum"/> times; after that
/// a look after every round, and a row whose pairs are all decided (<see cref="PairState"/>) is not measured again;
/// undecided rows go on up to <see cref="Maximum"/> while more rounds could decide one of their undecided pairs.
/// </summary>
/// <remarks>
/// Looking after every round and stopping at the first look that decides would make a 95 % interval wrong more often
/// than 5 % of the time. The design spends the 5 % over its looks instead (Bonferroni over the looks: each look's
/// interval has confidence 1 − 0.05 ÷ looks), so the chance that any look's interval misses the truth is at most 5 %
/// whatever the rounds show and whenever a row stops: the interval at the round a row stopped, the one the report
/// gives, is a 95 % interval. Why this and not a confidence sequence: docs/methodology.md, "Rounds that stop".
/// </remarks>
public sealed record RoundDesign(int Minimum, int Maximum)
{
    /// <summary>The default job's rounds: every row four times, one with a pair more rounds could decide a fifth time.</summary>
    public static readonly RoundDesign Default = new(4, 5);

    public static RoundDesign Fixed(int rounds) => new(rounds, rounds);

    public bool Sequential => Maximum > Minimum;

    /// <summary>How many times the design looks at a row: after each round from the minimum to the maximum.</summary>
    public int Looks => Maximum - Minimum + 1;

    /// <summary>The confidence of one look's interval: the 95 % spent evenly over the looks.</summary>
    public double Confidence => 1 - (1 - RatioInterval.Confidence) / Looks;

    /// <summary>b's time ÷ a's, paired round by round, with the interval this design gives at this many rounds.</summary>
    public RatioInterval Paired(IReadOnlyList<double> a, IReadOnlyList<double> b) => RatioInterval.Paired(a, b, Confidence);

    /// <summary>
    /// Whether a row measured in this many rounds is measured again: up to the minimum always; after that while a pair is
    /// undecided that more rounds could decide (<see cref="CouldDecide"/>), up to the maximum.
    /// </summary>
    public bool MeasuresAgain(int rounds, bool settled, bool couldDecide = true) =>
        rounds < Minimum || (rounds < Maximum && !settled && couldDecide);

    /// <summary>
    /// Whether a sequential design stopped a row before the maximum with undecided pairs, none of which more rounds could
    /// decide (<see cref="CouldDecide"/>): the row is "on the line".
    /// </summary>
    public bool StopsOnTheLine(int rounds, bool settled, bool couldDecide) => Sequential && rounds < Maximum && !settled && !couldDecide;

    /// <summary>
    /// Whether measuring an undecided pair's row up to the maximum could decide it if its ratio stayed where it is: the
    /// pair's interval at the maximum, as wide as the row's noise would make it then, would lie wholly beyond the 10 %
    /// line or wholly within it. A ratio closer to the line than that half-width stays undecided however the rounds fall,
    /// so its row is not measured again for it (stopping for futility: no claim is made, so none can be wrong).
    /// </summary>
    public bool CouldDecide(RatioInterval pair, RowNoise noise)
    {
        var line = Math.Log(1 + Verdict.PracticalDifference);
        var half = noise.HalfWidth(Maximum, noise.DegreesOfFreedomAt(Maximum), Confidence);
        return Math.Abs(Math.Abs(Math.Log(pair.Ratio)) - line) > half;
    }

    public string Describe() => Sequential
        ? $"{Minimum} to {Maximum} rounds: a row is measured again while a pair is undecided that more rounds could decide (each look's interval at " +
          $"{Confidence:P2}, 95 % spent over {Looks} looks)"
        : $"{Minimum} round{(Minimum == 1 ? "" : "s")} (fixed)";
}
