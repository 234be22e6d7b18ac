namespace ProtocolBench.Integration.Tests;

/// <summary>
/// The ranking of a row: every pair faster, level or undecided by its interval; tiers by dominance; a sole winner only
/// when tier 1 has one side; the pairs a chain would order but that are not apart named in a note.
/// </summary>
public sealed class RankingTests
{
    private static readonly RatioInterval Faster = new(1.5, 1.3, 1.7, 5, "test");
    private static readonly RatioInterval Level = new(1.02, 0.96, 1.08, 5, "test");
    private static readonly RatioInterval Undecided = new(1.05, 0.90, 1.22, 5, "test");

    /// <summary>A row whose sides take the given times, and whose pairs (slower ÷ faster, by time) have the given intervals.</summary>
    private static Ranking Row((string Name, double Time)[] sides, Dictionary<(string, string), RatioInterval> pairs) =>
        Ranking.Of(sides, (a, b) => pairs.TryGetValue((a, b), out var ratio) ? ratio : pairs[(b, a)].Inverse());

    [Fact]
    public void LevelPairsThatChainMakeOneTierAndNoWinner()
    {
        var ranking = Row([("A", 1.0), ("B", 1.01), ("C", 1.02)], new() { [("A", "B")] = Level, [("B", "C")] = Level, [("A", "C")] = Level });

        Assert.Single(ranking.Tiers);
        Assert.Null(ranking.Winner);
        Assert.Equal(Verdict.NoClearWinner, ranking.Says);
        Assert.True(ranking.Settled);
        Assert.Equal(3, ranking.Decided);
        Assert.Equal("A ≈ B ≈ C", ranking.ToString());
    }

    [Fact]
    public void TiesThatDoNotChainAreNamedBesideTheChain()
    {
        // A ≈ B and B ≈ C, but A › C: the chain "A ≈ B › C" would put B ahead of C, so the note says they are not apart.
        var ranking = Row([("A", 1.0), ("B", 1.04), ("C", 1.5)], new() { [("A", "B")] = Level, [("B", "C")] = Level, [("A", "C")] = Faster });

        Assert.Equal(2, ranking.Tiers.Count);
        Assert.Equal(["A", "B"], ranking.Tiers[0]);
        Assert.Equal(["C"], ranking.Tiers[1]);
        Assert.Null(ranking.Winner);
        Assert.Equal("B ≈ C", Assert.Single(ranking.NotApart()).Sides);
        Assert.Equal("A ≈ B › C 1.50× [1.30–1.70] (not apart: B ≈ C)", ranking.ToString());
    }

    [Fact]
    public void ASoleWinnerIsNamedWhenTierOneHasOneSide()
    {
        var ranking = Row([("A", 1.0), ("B", 1.5), ("C", 1.52)], new() { [("A", "B")] = Faster, [("A", "C")] = Faster, [("B", "C")] = Level });

        Assert.Equal("A", ranking.Winner);
        Assert.Equal("A", ranking.Says);
        Assert.Equal("A › B 1.50× [1.30–1.70] ≈ C", ranking.ToString());
        Assert.Empty(ranking.NotApart());
    }

    [Fact]
    public void TheIssuesRowReadsAsAnOrderWithTies()
    {
        // Shapes medium ×100 over HTTP: gRPC and SignalR MessagePack level, then REST, SignalR and GraphQL each apart.
        (string, double)[] sides = [("gRPC", 0.497), ("SignalR MessagePack", 0.510), ("REST", 1.24), ("SignalR", 1.54), ("GraphQL", 2.47)];
        var pairs = new Dictionary<(string, string), RatioInterval>();
        foreach (var (a, ta) in sides)
        {
            foreach (var (b, tb) in sides.Where(s => s.Item2 > ta))
            {
                var ratio = tb / ta;
                pairs[(a, b)] = ratio < 1.1 ? new RatioInterval(ratio, ratio * 0.95, ratio * 1.05, 8, "test") : new RatioInterval(ratio, ratio * 0.92, ratio * 1.08, 8, "test");
            }
        }

        var ranking = Row(sides, pairs);

        Assert.Equal(4, ranking.Tiers.Count);
        Assert.Null(ranking.Winner);
        Assert.Equal(10, ranking.Decided);
        Assert.StartsWith("gRPC ≈ SignalR MessagePack › REST 2.49× [2.30–2.69] › SignalR 3.10× ", ranking.ToString());
        Assert.Contains("› GraphQL 4.97×", ranking.ToString());
    }

    [Fact]
    public void AnUndecidedPairKeepsBothInOneTierAndTheRowOpen()
    {
        var ranking = Row([("A", 1.0), ("B", 1.05), ("C", 2.0)], new() { [("A", "B")] = Undecided, [("A", "C")] = Faster, [("B", "C")] = Faster });

        Assert.Equal(["A", "B"], ranking.Tiers[0]);
        Assert.False(ranking.Settled);
        Assert.Equal(2, ranking.Decided);
        Assert.Equal("A ? B", Assert.Single(ranking.Undecided).Pair()[..5]);
        Assert.StartsWith("A ? B › C", ranking.ToString());
    }

    [Fact]
    public void TheChainWithoutRatiosAndThePairsItDoesNotShow()
    {
        // One tier A ≈ B ≈ C with A and C undecided: the chain shows A ≈ B and B ≈ C, not A's claim against C.
        var wide = new RatioInterval(1.06, 0.93, 1.21, 5, "test");
        var ranking = Row([("A", 1.0), ("B", 1.03), ("C", 1.06), ("D", 2.0)],
            new() { [("A", "B")] = Level, [("B", "C")] = Level, [("A", "C")] = wide, [("A", "D")] = Faster, [("B", "D")] = Faster, [("C", "D")] = Faster });

        Assert.Equal("A ≈ B ≈ C › D", ranking.Chain(margins: false));
        Assert.Equal("A ≈ B ≈ C › D 1.50× [1.30–1.70]", ranking.Chain(margins: true));
        Assert.Equal("A ? C", Assert.Single(ranking.UndecidedApartInTier()).Sides);
        Assert.Null(ranking.NotApartNote);
    }

    [Fact]
    public void WithOneRoundThereIsNoRanking()
    {
        var ranking = Ranking.Of([("A", 1.0), ("B", 2.0)], (a, b) => RatioInterval.Paired([1.0], [2.0]));

        Assert.False(ranking.Tested);
        Assert.False(ranking.Settled);
        Assert.Equal(Verdict.Untested, ranking.Says);
        Assert.Equal(Verdict.Untested, ranking.ToString());
    }

    [Theory]
    [InlineData(1.02, 0.95, 1.09, PairState.Level)]
    [InlineData(1.02, 0.90, 1.09, PairState.Undecided)] // reaches below 1 ÷ 1.10
    [InlineData(1.12, 1.05, 1.19, PairState.Undecided)] // certainly slower, not certainly by 10 %
    [InlineData(1.30, 1.10, 1.50, PairState.Faster)]
    public void APairsStateComesFromWhereItsWholeIntervalLies(double ratio, double low, double high, PairState state) =>
        Assert.Equal(state, Verdict.Of("A", "B", new RatioInterval(ratio, low, high, 5, "test")).State);
}
