namespace ProtocolBench.Integration.Tests;

/// <summary>The parts a run's time is split into (processing, bytes on the link, opening a connection) and what they predict.</summary>
public sealed class VerdictPartsTests
{
    private const double Ms = 1_000_000;

    // REST: 1.0 ms, 10,000 bytes; gRPC: 1.2 ms, 4,000 bytes; opening a connection 0.2 and 0.5 ms, 1,000 and 1,500 bytes.
    private static readonly Side Rest = new("REST", 1.0 * Ms, 10_000, 0.2 * Ms, 1_000);
    private static readonly Side Grpc = new("gRPC", 1.2 * Ms, 4_000, 0.5 * Ms, 1_500);

    [Fact]
    public void OnLoopbackTheSideWithFewerBytesWinsBelowTheCrossingRate()
    {
        var parts = new VerdictParts(Rest, Grpc, BitsPerSecond: null, NewConnections: false);

        // 0.2 ms of processing against 6,000 bytes: equal at 6,000 × 8 bits ÷ 0.2 ms = 240 Mbit/s.
        Assert.Equal(240_000_000, parts.EqualAt()!.Value, tolerance: 1_000);
        Assert.Equal("gRPC", parts.Lighter.Name);
        // At 100 Mbit/s: REST 1.0 + 0.8 ms, gRPC 1.2 + 0.32 ms.
        Assert.Equal(1.52 / 1.8, parts.RatioUnder(100_000_000, newConnections: false)!.Value, 6);
        Assert.Equal(1.2, parts.RatioUnder(null, newConnections: false)!.Value, 6);
    }

    [Fact]
    public void NewConnectionsAddEachSidesOpeningCost()
    {
        var parts = new VerdictParts(Rest, Grpc, BitsPerSecond: null, NewConnections: false);

        Assert.Equal((1.2 + 0.5) / (1.0 + 0.2), parts.RatioUnder(null, newConnections: true)!.Value, 6);
    }

    [Fact]
    public void AShapedRunOnNewConnectionsGivesBackTheProcessing()
    {
        // The same sides measured at 100 Mbit/s on new connections: bytes and set-up bytes take 80 µs per 1,000.
        static Side Measured(Side side, double processing) => side with
        {
            Time = processing + side.Bytes * 80 + side.SetUp!.Value + side.SetUpBytes * 80,
            SetUp = side.SetUp + side.SetUpBytes * 80,
        };
        var parts = new VerdictParts(Measured(Rest, 1.0 * Ms), Measured(Grpc, 1.2 * Ms), 100_000_000, NewConnections: true);

        Assert.Equal(1.2, parts.RatioUnder(null, newConnections: false)!.Value, 6);
        Assert.Equal(1.7 / 1.2, parts.RatioUnder(null, newConnections: true)!.Value, 6);
        var (processing, transfer, opening) = parts.Gap();
        Assert.Equal(0.2 * Ms, processing, 3);
        Assert.Equal(-6_000 * 80, transfer, 3);
        Assert.Equal(0.3 * Ms + 500 * 80, opening, 3);
    }

    [Fact]
    public void ACostBothPayHidesAGapAboveTenPercent()
    {
        var parts = new VerdictParts(Rest with { Time = 1 * Ms }, Grpc with { Time = 2 * Ms }, null, false);

        // (2 + 9) ÷ (1 + 9) = 1.10
        Assert.Equal(9 * Ms, parts.HiddenBy(), 3);
        Assert.Equal(0, new VerdictParts(Rest with { Time = 1 * Ms }, Grpc with { Time = 1.05 * Ms }, null, false).HiddenBy());
    }

    [Fact]
    public void OneSideFasterAtEveryRateHasNoCrossing()
    {
        var parts = new VerdictParts(Rest, Grpc with { Time = 0.8 * Ms }, null, false);

        Assert.Null(parts.EqualAt());
    }

    [Fact]
    public void ATimeMostlySpentOnTheLinkGivesNoEstimateWithoutIt()
    {
        // REST measured at 100 Mbit/s: 0.85 ms of its 1.0 ms would be its 10,000 bytes' time, so loopback keeps 15 %.
        var parts = new VerdictParts(Rest with { Time = 1.0 * Ms }, Grpc, 100_000_000, NewConnections: false);

        Assert.Null(parts.RatioUnder(null, newConnections: false));
        Assert.NotNull(parts.RatioUnder(100_000_000, newConnections: true));
    }

    [Fact]
    public void WithoutTheOpeningCostThereIsNoEstimateForTheOtherPolicy()
    {
        var parts = new VerdictParts(Rest with { SetUp = null }, Grpc, null, false);

        Assert.Null(parts.RatioUnder(null, newConnections: true));
        Assert.NotNull(parts.RatioUnder(100_000_000, newConnections: false));
    }
}
