namespace ProtocolBench.Integration.Tests;

/// <summary>compare's calibration: two runs' differences in standard errors spread as a standard normal does when the intervals are right.</summary>
public sealed class CalibrationTests
{
    /// <summary>Each of <paramref name="cells"/> ratios measured twice with log error <paramref name="error"/>, reported with <paramref name="claimed"/>.</summary>
    private static Calibration Runs(int cells, double error, double claimed, int seed)
    {
        var random = new Random(seed);
        RatioInterval Measured(double truth) => new(Math.Exp(truth + error * random.Normal()), double.NaN, double.NaN, 5, "test") { LogError = claimed };
        return Calibration.Of(Enumerable.Range(0, cells).Select(i => (Measured(i * 0.01), Measured(i * 0.01))))!;
    }

    [Fact]
    public void RightIntervalsGiveAnSdNearOne()
    {
        var calibration = Runs(cells: 200, error: 0.05, claimed: 0.05, seed: 1);

        Assert.Equal(200, calibration.Ratios);
        Assert.InRange(calibration.Sd, 0.9, 1.1);
        Assert.InRange(1.0, calibration.Low, calibration.High);
        Assert.Matches(@"^calibration: SD \d\.\d\d \[\d\.\d\d–\d\.\d\d\] over 200 cells$", calibration.ToString());
    }

    [Fact]
    public void IntervalsTooNarrowOrTooWideShowOutsideIt()
    {
        var narrow = Runs(cells: 200, error: 0.05, claimed: 0.025, seed: 2);
        var wide = Runs(cells: 200, error: 0.05, claimed: 0.10, seed: 3);

        Assert.True(narrow.Low > 1.5, narrow.ToString());
        Assert.True(wide.High < 0.7, wide.ToString());
    }

    [Fact]
    public void RatiosWithoutAnErrorAreLeftOut()
    {
        var bare = new RatioInterval(1.1, double.NaN, double.NaN, 1, "one round");

        Assert.Null(Calibration.Of([(bare, bare), (bare, bare)]));
    }
}
