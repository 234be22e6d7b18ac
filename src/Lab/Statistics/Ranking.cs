namespace ProtocolBench.Lab.Statistics;

/// <summary>
/// A row's sides in tiers, from every pair's state (<see cref="PairState"/>): tier 1 holds the sides no other side is
/// faster than, tier 2 the same among the rest, and so on (the "subset of the best", Hsu 1996, applied again to what is
/// left). Within a tier no side is faster than another: the tier's pairs are level or undecided. A sole winner is named
/// exactly when tier 1 has one side. Written as <c>gRPC ≈ SignalR MessagePack › REST 2.50× [2.31–2.70] › GraphQL 5.0×
/// [4.6–5.4]</c>: › between tiers (with the ratio of each tier's first side to the fastest), ≈ level and, for an undecided pair, its claim
/// within one (~ within 20 %, ≳ ahead by under 20 %, &gt; ahead by how much unknown, ? nothing known: <see cref="Claim"/>). Where the chain says more than the pairs do (A ≈ B, B ≈ C, A › C reads "A ≈ B › C", which would put B
/// ahead of C), the pairs that are not apart follow in a note: "(not apart: B ≈ C)".
/// </summary>
public sealed class Ranking
{
    private readonly IReadOnlyDictionary<string, double> _times;

    private Ranking(IReadOnlyList<Verdict> pairs, IReadOnlyList<IReadOnlyList<string>> tiers, IReadOnlyDictionary<string, double> times) =>
        (Pairs, Tiers, _times) = (pairs, tiers, times);

    /// <summary>Every pair of the row, once each (the faster side by time first).</summary>
    public IReadOnlyList<Verdict> Pairs { get; }

    /// <summary>The tiers, best first; each tier's sides fastest first.</summary>
    public IReadOnlyList<IReadOnlyList<string>> Tiers { get; }

    /// <summary>The sole side of tier 1, or null when tier 1 holds more than one.</summary>
    public string? Winner => Tiers is [[var only], _, ..] ? only : null;

    public bool Tested => Pairs.Any(p => p.State != PairState.Untested);

    /// <summary>Pairs that are faster or level.</summary>
    public int Decided => Pairs.Count(p => p.State is PairState.Faster or PairState.Level);

    public IEnumerable<Verdict> Undecided => Pairs.Where(p => p.State == PairState.Undecided);

    /// <summary>Whether every pair is decided: the row needs no more rounds.</summary>
    public bool Settled => Tested && Pairs.All(p => p.State is PairState.Faster or PairState.Level);

    /// <summary>What the verdict column says: the winner's name, "no clear winner", or no verdict with one round.</summary>
    public string Says => Winner ?? (Tested ? Verdict.NoClearWinner : Verdict.Untested);

    /// <param name="sides">Each side's name and time.</param>
    /// <param name="ratio">b's time ÷ a's with its interval, for two sides a and b.</param>
    public static Ranking Of(IReadOnlyList<(string Name, double Time)> sides, Func<string, string, RatioInterval> ratio)
    {
        var ordered = sides.OrderBy(s => s.Time).ToList();
        var pairs = (from i in Enumerable.Range(0, ordered.Count)
                     from j in Enumerable.Range(i + 1, ordered.Count - i - 1)
                     select Verdict.Of(ordered[i].Name, ordered[j].Name, ratio(ordered[i].Name, ordered[j].Name))).ToList();
        var tiers = new List<IReadOnlyList<string>>();
        var left = ordered.Select(s => s.Name).ToList();
        while (left.Count > 0)
        {
            var tier = left.Where(side => !left.Any(other => pairs.Any(p => p.State == PairState.Faster && p.Faster == other && p.Slower == side))).ToList();
            // A faster side is faster by time too, so some side of what is left is always undominated; the guard is for NaN times.
            tier = tier.Count > 0 ? tier : left;
            tiers.Add(tier);
            left = [.. left.Except(tier)];
        }

        return new Ranking(pairs, tiers, ordered.ToDictionary(s => s.Name, s => s.Time));
    }

    /// <summary>The verdict on two sides of the row.</summary>
    public Verdict Pair(string a, string b) =>
        Pairs.First(p => (p.Faster == a && p.Slower == b) || (p.Faster == b && p.Slower == a));

    /// <summary>The pairs of sides in different tiers that the chain puts in order but that are not apart (level or undecided).</summary>
    public IEnumerable<Verdict> NotApart() =>
        from t in Enumerable.Range(0, Tiers.Count)
        from u in Enumerable.Range(t + 1, Tiers.Count - t - 1)
        from ahead in Tiers[t]
        from behind in Tiers[u]
        let pair = Pair(ahead, behind)
        where pair.State != PairState.Faster
        select pair;

    public override string ToString()
    {
        if (!Tested)
        {
            return _times.Count < 2 ? Tiers.SelectMany(t => t).FirstOrDefault() ?? "" : Verdict.Untested;
        }

        return NotApartNote is { } note ? $"{Chain(margins: true)} ({note})" : Chain(margins: true);
    }

    /// <summary>
    /// The tiers in a line, best first: › between tiers (<paramref name="margins"/>: with each tier's ratio to the fastest), and
    /// within a tier ≈ or the undecided pair's claim: "gRPC ≈ SignalR MessagePack › REST › GraphQL".
    /// </summary>
    public string Chain(bool margins)
    {
        var fastest = Tiers[0][0];
        return string.Concat(Tiers.SelectMany((tier, t) => tier.Select((side, i) =>
            (t, i) switch
            {
                (0, 0) => side,
                (_, 0) => margins ? $" › {side} {Pair(fastest, side).Margin}" : $" › {side}",
                _ => $" {Joint(tier[i - 1], side)} {side}",
            })));
    }

    /// <summary>The undecided pairs within a tier that are not neighbours in it: the chain shows no claim of theirs.</summary>
    public IEnumerable<Verdict> UndecidedApartInTier() =>
        from tier in Tiers
        from i in Enumerable.Range(0, tier.Count)
        from j in Enumerable.Range(i + 2, Math.Max(tier.Count - i - 2, 0))
        let pair = Pair(tier[i], tier[j])
        where pair.State == PairState.Undecided
        select pair;

    /// <summary>"not apart: B ≈ C, …" for the pairs the chain orders but that are not apart (<see cref="NotApart"/>); null when there are none.</summary>
    public string? NotApartNote =>
        NotApart().Select(p => p.Sides).ToList() is { Count: > 0 } pairs ? $"not apart: {string.Join(", ", pairs)}" : null;

    /// <summary>The symbol between two neighbours of a tier, the one written first on the left (<see cref="Verdict.Symbol"/>).</summary>
    private string Joint(string left, string right) => Pair(left, right) is var pair && pair.Faster == left ? pair.Symbol : pair.MirroredSymbol;
}
