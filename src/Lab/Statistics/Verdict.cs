namespace ProtocolBench.Lab.Statistics;

/// <summary>
/// The one verdict rule of both commands: of two sides, the faster is named only when the whole 95 % interval of the
/// ratio (slower ÷ faster) lies at or beyond 1 + <see cref="PracticalDifference"/>: with 95 % confidence it is at least
/// that much faster, so the difference both holds and matters. Otherwise there is no clear winner. Without an interval
/// (fewer than two rounds) there is no verdict. Why this rule and not a plain significance test: docs/methodology.md.
/// </summary>
/// <param name="Says">The faster side's name, <see cref="NoClearWinner"/> or <see cref="Untested"/>.</param>
/// <param name="Faster">The side with the lower time, named or not.</param>
/// <param name="Margin">Slower ÷ faster, at least 1, with its interval.</param>
public sealed record Verdict(string Says, string Faster, string Slower, RatioInterval Margin)
{
    /// <summary>Bolanowski et al. called 22 vs 21 ms and 76 vs 82 ms "both" and 75 vs 66 ms a gRPC win: about a 10 % line.</summary>
    public const double PracticalDifference = 0.10;

    public const string NoClearWinner = "no clear winner";

    /// <summary>How the papers write "no clear winner".</summary>
    public const string Both = "both";

    public const string Untested = "no verdict (one round)";

    public bool Decided => Says != Untested;

    public bool Named => Says != NoClearWinner && Says != Untested;

    /// <summary>Faster (named), level (the whole interval within 10 % either way), undecided, or untested.</summary>
    public PairState State => !Decided ? PairState.Untested
        : Named ? PairState.Faster
        : Margin.Low >= 1 / (1 + PracticalDifference) && Margin.High <= 1 + PracticalDifference ? PairState.Level
        : PairState.Undecided;

    /// <summary>The bound of the claims an undecided pair can still carry (<see cref="Claim"/>): 20 %, twice the line.</summary>
    public const double ClaimBound = 0.20;

    /// <summary>
    /// For an undecided pair, the strongest claim its interval supports: ahead by under 20 % (the whole interval within 1
    /// and 1.2), ahead by how much unknown (above 1, past 1.2), within 20 % (within 1 ÷ 1.2 and 1.2) or nothing known;
    /// null for a pair that is decided or untested.
    /// </summary>
    public Claim? Claim => State != PairState.Undecided ? null
        : Margin.Low >= 1 ? (Margin.High <= 1 + ClaimBound ? Statistics.Claim.AheadByUnder : Statistics.Claim.Ahead)
        : Margin.Low >= 1 / (1 + ClaimBound) && Margin.High <= 1 + ClaimBound ? Statistics.Claim.Within
        : Statistics.Claim.NothingKnown;

    /// <summary>The pair's state in words: "faster", "level", "within 20 %", "ahead by under 20 %", "ahead, by how much unknown", "nothing known" or "untested".</summary>
    public string Reading => State switch
    {
        PairState.Faster => "faster",
        PairState.Level => "level",
        PairState.Undecided => Claim switch
        {
            Statistics.Claim.Within => $"within {ClaimBound:P0}",
            Statistics.Claim.AheadByUnder => $"ahead by under {ClaimBound:P0}",
            Statistics.Claim.Ahead => "ahead, by how much unknown",
            _ => "nothing known",
        },
        _ => "untested",
    };

    /// <summary>Whether two verdicts on the same pair name opposite sides faster.</summary>
    public bool Opposes(Verdict other) => Named && other.Named && Says != other.Says;

    /// <summary>The pair as the ranking writes it, faster side first: "A › B 1.30× [1.12–1.51]", "A ≈ B …", "A ~ B …" and so on (<see cref="Symbol"/>).</summary>
    public string Pair() => $"{Sides} {Margin}";

    /// <summary>The pair without its interval, faster side first: "A › B", "A ≈ B", "A ~ B" and so on.</summary>
    public string Sides => $"{Faster} {Symbol} {Slower}";

    /// <summary>
    /// How a ranking joins the pair, faster side first: › faster, ≈ level; for an undecided pair its claim: ~ within 20 %,
    /// ≳ ahead by under 20 %, &gt; ahead by how much unknown, ? nothing known (or untested).
    /// </summary>
    public string Symbol => State switch
    {
        PairState.Faster => "›",
        PairState.Level => "≈",
        PairState.Undecided => Claim switch
        {
            Statistics.Claim.Within => "~",
            Statistics.Claim.AheadByUnder => "≳",
            Statistics.Claim.Ahead => ">",
            _ => "?",
        },
        _ => "?",
    };

    /// <summary>The symbol with the sides the other way round: ≲ and &lt; for the claims that have a direction.</summary>
    public string MirroredSymbol => Symbol switch
    {
        "≳" => "≲",
        ">" => "<",
        var same => same,
    };

    /// <summary>Same as a paper's verdict: the same winner, or neither names one ("both").</summary>
    public bool Matches(string paper) => Decided && (Named ? Says == paper : paper == Both);

    /// <param name="a">One side's name.</param>
    /// <param name="b">The other side's.</param>
    /// <param name="bOverA">b's time ÷ a's time with its interval.</param>
    public static Verdict Of(string a, string b, RatioInterval bOverA)
    {
        var (faster, slower, margin) = bOverA.Ratio >= 1 ? (a, b, bOverA) : (b, a, bOverA.Inverse());
        if (!margin.HasInterval)
        {
            return new(Untested, faster, slower, margin);
        }

        var named = margin.Low >= 1 + PracticalDifference;
        return new(named ? faster : NoClearWinner, faster, slower, margin);
    }

    public override string ToString() => Named
        ? $"{Says} ({Slower} ÷ {Says} {Margin})"
        : State == PairState.Undecided ? $"{NoClearWinner} ({Known}: {Slower} ÷ {Faster} {Margin})"
        : Decided ? $"{NoClearWinner} ({Reading}: {Slower} ÷ {Faster} {Margin})" : Says;

    /// <summary>What an undecided pair's claim says, with the side it names where it has a direction: "REST ahead by under 20 %", "within 20 %", "nothing known".</summary>
    public string Known => Claim is Statistics.Claim.AheadByUnder or Statistics.Claim.Ahead ? $"{Faster} {Reading}" : Reading;
}
