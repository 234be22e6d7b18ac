namespace ProtocolBench.Integration.Tests;

/// <summary>
/// The one verdict rule both commands use: a side is named faster only when the whole 95 % interval of slower ÷ faster
/// lies at or beyond 1 + 10 %; otherwise no clear winner; without an interval, no verdict.
/// </summary>
public sealed class VerdictTests
{
    [Fact]
    public void TheFasterSideIsNamedWhenTheWholeIntervalPassesTenPercent()
    {
        var verdict = Verdict.Of("REST", "gRPC", new RatioInterval(1.30, 1.10, 1.50, 3, "test"));

        Assert.Equal("REST", verdict.Says);
        Assert.True(verdict.Named);
        Assert.Equal("gRPC", verdict.Slower);
    }

    [Fact]
    public void AFasterSecondSideIsNamedFromTheInverseRatio()
    {
        var verdict = Verdict.Of("REST", "gRPC", new RatioInterval(0.5, 0.4, 0.6, 3, "test"));

        Assert.Equal("gRPC", verdict.Says);
        Assert.Equal(2.0, verdict.Margin.Ratio, 6);
        Assert.Equal(1 / 0.6, verdict.Margin.Low, 6);
    }

    [Theory]
    [InlineData(1.30, 1.09, 1.55)] // a large ratio whose interval dips below 10 %
    [InlineData(1.05, 1.02, 1.08)] // certainly faster, but by less than 10 %
    [InlineData(1.00, 0.90, 1.11)] // the interval holds 1
    public void OtherwiseThereIsNoClearWinner(double ratio, double low, double high)
    {
        var verdict = Verdict.Of("REST", "gRPC", new RatioInterval(ratio, low, high, 3, "test"));

        Assert.Equal(Verdict.NoClearWinner, verdict.Says);
        Assert.True(verdict.Decided);
        Assert.False(verdict.Named);
        Assert.Equal("REST", verdict.Faster);
    }

    [Fact]
    public void WithoutAnIntervalThereIsNoVerdict()
    {
        var verdict = Verdict.Of("REST", "gRPC", RatioInterval.Paired([10.0], [20.0]));

        Assert.Equal(Verdict.Untested, verdict.Says);
        Assert.False(verdict.Decided);
        Assert.False(verdict.Matches("REST"));
        Assert.False(verdict.Matches(Verdict.Both));
    }

    [Fact]
    public void RoundsMeasuredTogetherDecideThroughThePairedInterval()
    {
        // gRPC 30 % slower in every round, however the machine drifted between rounds.
        double[] rest = [10.0, 14.0, 9.0, 12.0];
        double[] grpc = [.. rest.Select((t, i) => t * (i % 2 == 0 ? 1.29 : 1.31))];

        var verdict = Verdict.Of("REST", "gRPC", RatioInterval.Paired(rest, grpc));

        Assert.Equal("REST", verdict.Says);
        Assert.InRange(verdict.Margin.Low, 1.1, 1.3);
    }

    [Fact]
    public void RoundsThatDisagreeGiveNoClearWinner()
    {
        double[] rest = [10.0, 10.0, 10.0, 10.0];
        double[] grpc = [13.0, 8.0, 12.5, 8.5];

        Assert.Equal(Verdict.NoClearWinner, Verdict.Of("REST", "gRPC", RatioInterval.Paired(rest, grpc)).Says);
    }

    [Theory]
    [InlineData("REST", true)]
    [InlineData("gRPC", false)]
    [InlineData(Verdict.Both, false)]
    public void ANamedVerdictMatchesOnlyAPaperWithTheSameWinner(string paper, bool matches) =>
        Assert.Equal(matches, Verdict.Of("REST", "gRPC", new RatioInterval(1.5, 1.2, 1.8, 3, "test")).Matches(paper));

    [Fact]
    public void NoClearWinnerMatchesAPaperThatSaysBoth()
    {
        var verdict = Verdict.Of("REST", "gRPC", new RatioInterval(1.02, 0.95, 1.09, 3, "test"));

        Assert.True(verdict.Matches(Verdict.Both));
        Assert.False(verdict.Matches("REST"));
    }
}
