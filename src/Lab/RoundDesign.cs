namespace ProtocolBench.Lab;

/// <summary>
/// How many rounds a run measures and when it looks at its rows. Fixed (<c>--rounds N</c>): every row N times, one look
/// at the end, 95 % intervals. Sequential (the default job): every row at least <see cref="Minimum"/> times; after that
/// a look after every round, and a row whose pairs are all decided (<see cref="PairState"/>) is not measured again;
/// undecided rows go on up to <see cref="Maximum"/>.
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
    /// <summary>The default job's rounds: every row three times, an undecided one up to eight.</summary>
    public static readonly RoundDesign Default = new(3, 8);

    public static RoundDesign Fixed(int rounds) => new(rounds, rounds);

    public bool Sequential => Maximum > Minimum;

    /// <summary>How many times the design looks at a row: after each round from the minimum to the maximum.</summary>
    public int Looks => Maximum - Minimum + 1;

    /// <summary>The confidence of one look's interval: the 95 % spent evenly over the looks.</summary>
    public double Confidence => 1 - (1 - RatioInterval.Confidence) / Looks;

    /// <summary>b's time ÷ a's, paired round by round, with the interval this design gives at this many rounds.</summary>
    public RatioInterval Paired(IReadOnlyList<double> a, IReadOnlyList<double> b) => RatioInterval.Paired(a, b, Confidence);

    /// <summary>Whether a row measured in this many rounds is measured again, given whether all its pairs are decided.</summary>
    public bool MeasuresAgain(int rounds, bool settled) => rounds < Minimum || (rounds < Maximum && !settled);

    public string Describe() => Sequential
        ? $"{Minimum} to {Maximum} rounds: a row is measured again until its pairs are decided (each look's interval at " +
          $"{Confidence:P2}, 95 % spent over {Looks} looks)"
        : $"{Minimum} round{(Minimum == 1 ? "" : "s")} (fixed)";
}
