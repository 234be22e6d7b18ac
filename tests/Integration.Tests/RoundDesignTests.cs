namespace ProtocolBench.Integration.Tests;

/// <summary>
/// The stopping rule on synthetic rounds: every row measured the minimum number of rounds, then, if a pair is undecided,
/// up to the maximum; the 95 % spent over the two looks keeps a pair on the 10 % line from being called faster more often
/// than a single look at 95 % would (2.5 % on that side), which looking at 95 % after every round does not.
/// </summary>
public sealed class RoundDesignTests
{
    /// <summary>
    /// One row of two sides under a design: side B takes <paramref name="ratio"/> × A's time, each round's ratio off by
    /// log-normal noise of <paramref name="noise"/>; rounds are added while the design measures the row again (or, with
    /// <paramref name="looks"/>, while the row is unsettled: a look after every round, each read by the design it names).
    /// </summary>
    private static (int Rounds, Ranking Ranking) Settle(RoundDesign design, double ratio, double noise, Random random, Func<int, RoundDesign>? looks = null)
    {
        List<double> a = [], b = [];
        Ranking? ranking = null;
        while (looks is null
                   ? design.MeasuresAgain(a.Count, ranking?.Settled ?? false)
                   : a.Count < design.Minimum || (a.Count < design.Maximum && ranking?.Settled != true))
        {
            var drift = Math.Exp(random.NextDouble() - 0.5); // the machine's drift hits both sides of a round alike
            a.Add(10 * drift);
            b.Add(10 * drift * ratio * Math.Exp(noise * random.Normal()));
            var read = looks?.Invoke(a.Count) ?? design;
            ranking = a.Count < 2 ? null : Ranking.Of([("A", Statistic.GeometricMean(a)), ("B", Statistic.GeometricMean(b))], (x, y) =>
                x == "A" ? read.Paired(a, b) : read.Paired(b, a));
        }

        return (a.Count, ranking!);
    }

    [Fact]
    public void APlainOrderSettlesAtTheMinimum()
    {
        var (rounds, ranking) = Settle(new RoundDesign(3, 8), ratio: 2.5, noise: 0.03, new Random(1));

        Assert.Equal(3, rounds);
        Assert.True(ranking.Settled);
        Assert.Equal("A", ranking.Winner);
    }

    [Fact]
    public void AnUndecidedRowGoesOnToTheMaximumAndStaysUndecided()
    {
        var (rounds, ranking) = Settle(new RoundDesign(3, 8), ratio: 1.10, noise: 0.3, new Random(2));

        Assert.Equal(8, rounds);
        Assert.False(ranking.Settled);
        Assert.Equal(PairState.Undecided, Assert.Single(ranking.Pairs).State);
    }

    [Fact]
    public void LevelSidesSettleOnceTheIntervalFitsWithinTenPercent()
    {
        var settled = Enumerable.Range(0, 200).Select(i => Settle(new RoundDesign(3, 8), ratio: 1.0, noise: 0.005, new Random(100 + i))).ToList();

        Assert.All(settled, s => Assert.True(s.Ranking.Settled));
        Assert.All(settled, s => Assert.Equal(PairState.Level, Assert.Single(s.Ranking.Pairs).State));
        Assert.InRange(settled.Average(s => s.Rounds), 3, 5);
    }

    [Fact]
    public void AFixedDesignMeasuresEveryRowItsRoundsAndLooksOnceAt95Percent()
    {
        var design = RoundDesign.Fixed(8);

        Assert.False(design.Sequential);
        Assert.Equal(0.95, design.ConfidenceAt(8), 9);
        Assert.Equal(0.95, design.ConfidenceAt(8, noisierCell: true), 9);
        Assert.Equal(1, design.Looks);
        Assert.True(design.MeasuresAgain(7, settled: true));
        Assert.False(design.MeasuresAgain(8, settled: false));
        Assert.Equal(8, Settle(design, ratio: 2.5, noise: 0.03, new Random(3)).Rounds);
    }

    [Fact]
    public void TheTwoLooksSpendTheFivePercentBetweenThem()
    {
        var design = new RoundDesign(3, 8);

        Assert.Equal(2, design.Looks);
        Assert.Equal(0.995, design.ConfidenceAt(3), 9);
        Assert.Equal(0.955, design.ConfidenceAt(8), 9);
        Assert.Equal(0.05, 1 - design.ConfidenceAt(3) + 1 - design.ConfidenceAt(8), 9);
        // A pair with a cell noisier than its row gives up more at the last look, for what its first may have overspent.
        Assert.Equal(0.995, design.ConfidenceAt(3, noisierCell: true), 9);
        Assert.Equal(0.97, design.ConfidenceAt(8, noisierCell: true), 9);
        // A row cut short between the looks (an interrupted run) is read as strictly as at the first.
        Assert.Equal(0.995, design.ConfidenceAt(5), 9);
        Assert.True(design.MeasuresAgain(2, settled: true));
        Assert.False(design.MeasuresAgain(3, settled: true));
        Assert.True(design.MeasuresAgain(3, settled: false));
        // Past the first look a row goes on to the maximum: there is no look in between.
        Assert.True(design.MeasuresAgain(5, settled: true));
        Assert.False(design.MeasuresAgain(8, settled: false));
    }

    [Fact]
    public void ARowWhosePairsSitOnTheLineIsNotMeasuredAgain()
    {
        // A row of five with a residual SD of 5 % a round: at 8 rounds a pair's 95.5 % interval reaches about 5 % either side.
        var design = new RoundDesign(3, 8);
        var noise = new RowNoise(Variance: 0.05 * 0.05, DegreesOfFreedom: 8, Cells: 5, Rounds: 3);
        RatioInterval Pair(double ratio) => new(ratio, ratio / 1.3, ratio * 1.3, 3, "t");

        Assert.False(design.CouldDecide(Pair(1.10), noise));
        Assert.False(design.CouldDecide(Pair(1.12), noise));
        Assert.True(design.CouldDecide(Pair(1.60), noise));
        Assert.True(design.CouldDecide(Pair(1.00), noise));
        Assert.True(design.CouldDecide(Pair(1 / 1.60), noise));
        Assert.False(design.MeasuresAgain(3, settled: false, couldTellMore: false));
        Assert.True(design.MeasuresAgain(2, settled: false, couldTellMore: false));
        Assert.True(design.MeasuresAgain(3, settled: false, couldTellMore: true));
        // Stopped there, the row is "on the line"; a settled row, one stopped by the maximum or a fixed design's is not.
        Assert.True(design.StopsOnTheLine(3, settled: false, couldTellMore: false));
        Assert.False(design.StopsOnTheLine(3, settled: true, couldTellMore: false));
        Assert.False(design.StopsOnTheLine(8, settled: false, couldTellMore: false));
        Assert.False(RoundDesign.Fixed(3).StopsOnTheLine(2, settled: false, couldTellMore: false));
    }

    [Fact]
    public void APairOnTheLineOfWhichNothingIsKnownKeepsItsRowMeasuredForAClaim()
    {
        // At 8 rounds and a residual SD of 5 % a round, a pair's 95.5 % interval reaches about 5.4 % either side.
        var design = new RoundDesign(4, 8);
        var calm = new RowNoise(Variance: 0.05 * 0.05, DegreesOfFreedom: 12, Cells: 5, Rounds: 4);
        Verdict Pair(double ratio, double spread) => Verdict.Of("A", "B", new RatioInterval(ratio, ratio / spread, ratio * spread, 4, "t"));

        // On the line, it cannot be decided, but its interval would come to lie above 1 (1.10: within 1.04–1.16).
        Assert.Equal(Claim.NothingKnown, Pair(1.10, 1.3).Claim);
        Assert.False(design.CouldDecide(Pair(1.10, 1.3).Margin, calm));
        Assert.True(design.CouldTellMore(Pair(1.10, 1.3), calm));
        Assert.True(design.CouldTellMore(Pair(1.08, 1.3), calm));
        // With a claim already it has nothing more to gain: its row may stop.
        Assert.Equal(Claim.AheadByUnder, Pair(1.10, 1.08).Claim);
        Assert.False(design.CouldTellMore(Pair(1.10, 1.08), calm));
        // Where the row is so noisy that at 8 rounds its interval would still reach below 1 and past 1.2, neither.
        var noisy = calm with { Variance = 0.10 * 0.10 };
        Assert.False(design.CouldTellMore(Pair(1.10, 1.3), noisy));
        // A pair more rounds could decide is one more rounds could tell more of.
        Assert.True(design.CouldTellMore(Pair(1.60, 1.3), calm));
        Assert.True(design.CouldTellMore(Pair(1.00, 1.3), calm));
    }

    [Fact]
    public void LookingTwiceDoesNotInflateTheChanceOfCallingAPairOnTheLineFaster()
    {
        // B is exactly 10 % slower: "A faster" is a false claim (the rule asks for more than 10 %). One look at 95 % makes
        // it at most 2.5 % of the time; the design must too, though it looks twice.
        const int rows = 4000;
        var design = new RoundDesign(3, 8);
        double FalseClaims(Func<int, RoundDesign>? looks)
        {
            var random = new Random(7);
            return Enumerable.Range(0, rows).Count(_ => Settle(design, ratio: 1.10, noise: 0.08, random, looks).Ranking.Winner == "A") / (double)rows;
        }

        var spent = FalseClaims(null);
        var naive = FalseClaims(RoundDesign.Fixed);

        Assert.InRange(spent, 0, 0.025);
        // Each look at 95 % (what the rule would be without spending): the false claims add up over the looks.
        Assert.InRange(naive, 0.035, 1);
    }
}
