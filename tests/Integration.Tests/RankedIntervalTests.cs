namespace ProtocolBench.Integration.Tests;

/// <summary>
/// The paced study's ratio: the Hodges–Lehmann ratio of two cells' requests with the Mann–Whitney interval, checked
/// against the textbook's ranks and, on synthetic cells timed in whole milliseconds, for how often it misses.
/// </summary>
public sealed class RankedIntervalTests
{
    [Fact]
    public void FiveAgainstFiveTakesTheThirdRatioFromEachEnd()
    {
        // P(U ≤ 2) = 4/252 ≤ 2.5 % < P(U ≤ 3) = 7/252: the 96.8 % interval of the tables, from the 3rd to the 23rd of 25.
        Assert.Equal(3, RankDistribution.LowerRank(5, 5, 0.025));

        var interval = RatioInterval.Ranked([1, 2, 3, 4, 5], [10, 20, 30, 40, 50]);

        var ratios = new[] { 1, 2, 3, 4, 5 }.SelectMany(a => new[] { 10, 20, 30, 40, 50 }.Select(b => (double)b / a)).Order().ToArray();
        Assert.Equal(10, interval.Ratio, 9);
        Assert.Equal(ratios[2], interval.Low, 9);
        Assert.Equal(ratios[22], interval.High, 9);
    }

    [Fact]
    public void ExactAndApproximateRanksMeetWhereTheyHandOver()
    {
        // 32 + 33 values is the last exact case; Edgeworth's expansion from there on must agree with it.
        var exact = RankDistribution.LowerRank(32, 33, 0.025);
        var approximate = RankDistribution.LowerRank(33, 33, 0.025);

        // Normal theory: 378.6 and 391.6.
        Assert.InRange(exact, 374, 383);
        Assert.InRange(approximate - exact, 8, 18);
        Assert.Equal(0, RankDistribution.LowerRank(2, 2, 0.025));
    }

    [Fact]
    public void WholeMillisecondsOfOneDistributionAreRarelyApart()
    {
        var random = new Random(64);
        double Request() => Math.Round(5 * Math.Exp(0.3 * random.Normal()));
        const int trials = 2000;

        var intervals = Enumerable.Range(0, trials)
            .Select(_ => RatioInterval.Ranked(Enumerable.Range(0, 60).Select(_ => Request()).ToArray(), Enumerable.Range(0, 60).Select(_ => Request()).ToArray()))
            .ToList();

        var apart = intervals.Count(i => i.Low > 1 || i.High < 1) / (double)trials;
        var faster = intervals.Count(i => Verdict.Of("a", "b", i).Named) / (double)trials;
        Assert.InRange(apart, 0, 0.05);
        Assert.InRange(faster, 0, 0.01);
        Assert.All(intervals, i => Assert.True(i.HasInterval));
    }

    [Fact]
    public void ATrueFactorIsCoveredAsOftenAsPromised()
    {
        var random = new Random(65);
        double[] Cell(double median) => Enumerable.Range(0, 60).Select(_ => median * Math.Exp(0.3 * random.Normal())).ToArray();
        const int trials = 2000;

        var covered = Enumerable.Range(0, trials).Select(_ => RatioInterval.Ranked(Cell(4), Cell(5.2))).Count(i => i.Low <= 1.3 && 1.3 <= i.High);

        Assert.InRange(covered / (double)trials, 0.935, 0.965);
    }

    [Fact]
    public void NonPositiveTimesGiveNoInterval()
    {
        var interval = RatioInterval.Ranked([0, 1, 2], [1, 2, 3]);

        Assert.False(interval.HasInterval);
        Assert.True(double.IsNaN(interval.Ratio));
    }
}
