namespace ProtocolBench.Integration.Tests;

/// <summary>
/// What an undecided pair still says: the strongest of "ahead by under 20 %", "ahead, by how much unknown", "within 20 %"
/// and "nothing known" that its interval of slower ÷ faster supports, and the symbol the ranking writes for it.
/// </summary>
public sealed class ClaimTests
{
    [Theory]
    [InlineData(1.08, 1.02, 1.15, Claim.AheadByUnder, "≳", "ahead by under 20 %")]
    [InlineData(1.15, 1.01, 1.31, Claim.Ahead, ">", "ahead, by how much unknown")]
    [InlineData(1.04, 0.90, 1.19, Claim.Within, "~", "within 20 %")]
    [InlineData(1.04, 0.82, 1.31, Claim.NothingKnown, "?", "nothing known")]
    [InlineData(1.10, 0.98, 1.24, Claim.NothingKnown, "?", "nothing known")] // below 1 and past 1.2: neither bound holds
    public void AnUndecidedPairCarriesTheStrongestClaimItsIntervalSupports(double ratio, double low, double high, Claim claim, string symbol, string reading)
    {
        var verdict = Verdict.Of("REST", "gRPC", new RatioInterval(ratio, low, high, 5, "test"));

        Assert.Equal(PairState.Undecided, verdict.State);
        Assert.Equal(claim, verdict.Claim);
        Assert.Equal(symbol, verdict.Symbol);
        Assert.Equal(reading, verdict.Reading);
        Assert.Equal($"REST {symbol} gRPC {verdict.Margin}", verdict.Pair());
    }

    [Fact]
    public void ADecidedPairHasNoClaimOfItsOwn()
    {
        var faster = Verdict.Of("REST", "gRPC", new RatioInterval(1.30, 1.12, 1.50, 5, "test"));
        var level = Verdict.Of("REST", "gRPC", new RatioInterval(1.02, 0.95, 1.08, 5, "test"));

        Assert.Null(faster.Claim);
        Assert.Equal("faster", faster.Reading);
        Assert.Null(level.Claim);
        Assert.Equal("level", level.Reading);
    }

    [Fact]
    public void TheRankingWritesEachClaimBetweenNeighboursOfATier()
    {
        // A and B level; B a little ahead of C (1.00–1.20); C ahead of D, how much unknown; D and E nothing known.
        var ratios = new Dictionary<(string, string), RatioInterval>
        {
            [("A", "B")] = new(1.01, 0.96, 1.06, 5, "t"),
            [("B", "C")] = new(1.10, 1.03, 1.17, 5, "t"),
            [("C", "D")] = new(1.12, 1.02, 1.25, 5, "t"),
            [("D", "E")] = new(1.02, 0.80, 1.30, 5, "t"),
        };
        var sides = new[] { ("A", 1.0), ("B", 1.01), ("C", 1.11), ("D", 1.25), ("E", 1.27) };
        RatioInterval Ratio(string a, string b) =>
            ratios.TryGetValue((a, b), out var r) ? r : ratios.TryGetValue((b, a), out var back) ? back.Inverse() : new(1.05, 0.85, 1.30, 5, "t");

        var ranking = Ranking.Of(sides, Ratio);

        Assert.Equal(PairState.Undecided, ranking.Pair("B", "C").State);
        Assert.StartsWith("A ≈ B ≳ C > D ? E", ranking.ToString());
    }

    [Fact]
    public void AVerdictWithoutAWinnerSaysWhatIsKnown()
    {
        Assert.Equal("no clear winner (REST ahead by under 20 %: gRPC ÷ REST 1.08× [1.02–1.15])",
            Verdict.Of("REST", "gRPC", new RatioInterval(1.08, 1.02, 1.15, 5, "test")).ToString());
        Assert.Equal("no clear winner (within 20 %: gRPC ÷ REST 1.04× [0.90–1.19])",
            Verdict.Of("REST", "gRPC", new RatioInterval(1.04, 0.90, 1.19, 5, "test")).ToString());
        Assert.Equal("no clear winner (level: gRPC ÷ REST 1.02× [0.95–1.08])",
            Verdict.Of("REST", "gRPC", new RatioInterval(1.02, 0.95, 1.08, 5, "test")).ToString());
    }
}
