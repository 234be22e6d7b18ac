using ProtocolBench.Lab.Costs;

namespace ProtocolBench.Integration.Tests;

/// <summary>
/// The service's own account of what it spends (<see cref="ServiceMeter"/>), read over EventPipe from a running service
/// process: its CPU time agrees with the kernel's account of the same process over the same window, and what it
/// allocates grows with the work it is given.
/// </summary>
[Collection(SqliteCollection.Name)]
public sealed class ServerCostTests(SqliteServices fixture)
{
    [Fact]
    public async Task TheRuntimesAccountOfCpuAgreesWithTheKernels()
    {
        using var meter = ServiceMeter.Attach(RestProcessId);
        var client = fixture.Client(Protocol.Rest, Transport.Http);
        var search = Catalogue.Named("search-3112");
        await search.AttemptAsync(client, "", TimeSpan.FromSeconds(30), Token);

        var start = await meter.PauseAsync(Token);
        const int operations = 30;
        for (var i = 0; i < operations; i++)
        {
            Assert.True((await search.AttemptAsync(client, "", TimeSpan.FromSeconds(30), Token)).Ok);
        }

        var end = await meter.PauseAsync(Token);
        var cost = CostPerOp.Between(meter.Read(start), meter.Read(end), operations);

        // Each search reads and serializes 3,112 authors with their books: milliseconds of CPU and far more than a kilobyte.
        Assert.InRange(cost.ServerCpuMicros, 500, 1_000_000);
        Assert.True(cost.ServerAllocatedBytes > 100_000, $"{cost.ServerAllocatedBytes:N0} bytes allocated per search");
        // The kernel counts in 10 ms steps at each end of the window; beyond that the two accounts are the same time.
        var runtime = cost.ServerCpuMicros * operations / 1e6;
        var kernel = cost.KernelCpuMicros * operations / 1e6;
        Assert.True(Math.Abs(runtime - kernel) <= 0.25 * kernel + 0.03, $"runtime {runtime:F3} s, kernel {kernel:F3} s");
    }

    [Fact]
    public async Task EachReadingHoldsAtLeastTheOneBefore()
    {
        using var meter = ServiceMeter.Attach(RestProcessId);
        var client = fixture.Client(Protocol.Rest, Transport.Http);
        var readings = new List<ServerReading>();
        for (var i = 0; i < 4; i++)
        {
            readings.Add(meter.Read(await meter.PauseAsync(Token)));
            await client.GetIntMaxAsync(Token);
        }

        foreach (var (before, after) in readings.Zip(readings.Skip(1)))
        {
            Assert.True(after.CpuSeconds >= before.CpuSeconds && after.AllocatedBytes >= before.AllocatedBytes, $"{before} then {after}");
            Assert.True(after.KernelSeconds >= before.KernelSeconds, $"{before} then {after}");
        }
    }

    [Fact]
    public void AProcessWithoutARuntimeIsNotMetered()
    {
        Assert.Null(ServiceMeter.TryAttach(1 << 22, out var problem));
        Assert.False(string.IsNullOrEmpty(problem));
    }

    private int RestProcessId => fixture.Services.Processes.Single(p => p.Spec.Protocol == Protocol.Rest).Id;
}
