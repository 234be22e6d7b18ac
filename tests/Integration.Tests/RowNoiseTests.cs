namespace ProtocolBench.Integration.Tests;

/// <summary>A row's round-to-round noise: the residual of the two-way layout cell × round, and the pairs' intervals it gives.</summary>
public sealed class RowNoiseTests
{
    [Fact]
    public void TheResidualIsWhatTheCellsAndTheRoundsDoNotExplain()
    {
        // Logarithms 0 0 | 0 0.3 | 0 0: cell means 0, 0.15, 0; round means 0, 0.1; grand mean 0.05. The residuals are
        // ±0.05, ±0.1, ±0.05: their squares sum to 0.03 over (3 − 1)(2 − 1) = 2 degrees of freedom.
        var noise = RowNoise.Of([[1.0, 1.0], [1.0, Math.Exp(0.3)], [1.0, 1.0]])!;

        Assert.Equal(2, noise.DegreesOfFreedom);
        Assert.Equal(0.015, noise.Variance, 12);
    }

    [Fact]
    public void ForTwoCellsItIsThePairedInterval()
    {
        double[] a = [10, 12, 9, 11], b = [15, 19, 12, 18];

        var pooled = RowNoise.Of([a, b])!.Ratio(a, b, 0.99);
        var paired = RatioInterval.Paired(a, b, 0.99);

        Assert.Equal(paired.Ratio, pooled.Ratio, 12);
        Assert.Equal(paired.Low, pooled.Low, 12);
        Assert.Equal(paired.High, pooled.High, 12);
    }

    [Fact]
    public void WhatARoundDoesToEveryCellCancels()
    {
        // Each cell a fixed multiple of the round's speed: no residual, so the ratios are known exactly.
        double[] round = [1.0, 1.7, 0.8];
        var cells = new[] { 1.0, 2.5, 4.0 }.Select(m => round.Select(r => m * r).ToArray()).ToArray();

        var noise = RowNoise.Of(cells)!;
        var ratio = noise.Ratio(cells[0], cells[1]);

        Assert.Equal(0, noise.Variance, 12);
        Assert.Equal(2.5, ratio.Low, 9);
        Assert.Equal(2.5, ratio.High, 9);
    }

    [Fact]
    public void AtThreeRoundsARowOfFiveDecidesAPairItsOwnTwoDegreesOfFreedomCannot()
    {
        // B takes 1.5× A's time; A and B are 6 % off in opposite directions in rounds 1 and 2. On its own the pair's t has
        // 2 degrees of freedom (9.9 at 99.17 %) and its interval reaches below 1.10; the row's five cells give it 8 (3.5).
        double[] wobble = [Math.Exp(0.06), Math.Exp(-0.06), 1];
        double[] a = [.. wobble], b = [.. wobble.Select(w => 1.5 / w)];
        double[][] row = [a, b, [2, 2, 2], [3, 3, 3], [4.5, 4.5, 4.5]];
        const double confidence = 1 - 0.05 / 6;

        var noise = RowNoise.Of(row)!;

        Assert.Equal(8, noise.DegreesOfFreedom);
        Assert.Equal(PairState.Undecided, Verdict.Of("A", "B", RatioInterval.Paired(a, b, confidence)).State);
        Assert.Equal(PairState.Faster, Verdict.Of("A", "B", noise.Ratio(a, b, confidence)).State);
    }

    [Fact]
    public void FewerThanTwoCellsOrRoundsHaveNoNoise()
    {
        Assert.Null(RowNoise.Of([[1.0, 2.0]]));
        Assert.Null(RowNoise.Of([[1.0], [2.0]]));
        Assert.Null(RowNoise.Of([[1.0, 2.0], [1.0]]));
    }
}
