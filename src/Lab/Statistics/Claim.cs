namespace ProtocolBench.Lab.Statistics;

/// <summary>
/// The strongest thing an undecided pair's interval of slower ÷ faster still says (<see cref="Verdict.Claim"/>), read from
/// the same interval as "faster" and "level" and so at the same level: each is wrong only when the interval misses the
/// true ratio on one side, at most 2.5 % of the time (docs/methodology.md, "Claims of undecided pairs").
/// </summary>
public enum Claim
{
    /// <summary>The interval reaches below 1 ÷ 1.2 or, reaching below 1, above 1.2.</summary>
    NothingKnown,

    /// <summary>The interval lies within 1 ÷ 1.2 and 1.2: neither is more than 20 % faster.</summary>
    Within,

    /// <summary>The interval lies within 1 and 1.2: the faster side is ahead, by less than 20 %.</summary>
    AheadByUnder,

    /// <summary>The interval lies above 1 and reaches past 1.2: the faster side is ahead, by how much is unknown.</summary>
    Ahead,
}
