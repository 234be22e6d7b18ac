using ProtocolBench.Lab.Runs;

namespace ProtocolBench.Integration.Tests;

/// <summary>Idle cores poll for the run when the PM QoS file can be held, and the setup table says what happened when it cannot.</summary>
public sealed class CpuIdleTests
{
    [Fact]
    public void HoldingWritesZeroMicrosecondsAndKeepsTheFileOpenUntilTheRunEnds()
    {
        if (!OperatingSystem.IsLinux())
        {
            return;
        }

        // A file of our own stands in for /dev/cpu_dma_latency: the same open and write, read back by a second reader.
        var file = Path.Combine(Path.GetTempPath(), $"cpu-dma-latency-{Guid.NewGuid():N}");
        File.WriteAllBytes(file, [0x2a, 0, 0, 0]);
        try
        {
            using (var idle = CpuIdle.Hold(leave: false, file))
            {
                Assert.True(idle.Polling);
                Assert.True(CpuIdle.Polled(idle.Description));
                Assert.Equal(0, BitConverter.ToInt32(File.ReadAllBytes(file)));
            }
        }
        finally
        {
            File.Delete(file);
        }
    }

    [Fact]
    public void ARunsDescriptionSaysWhetherItsCoresPolled()
    {
        using var left = CpuIdle.Hold(leave: true);

        Assert.False(CpuIdle.Polled(left.Description));
        Assert.Null(CpuIdle.Polled(""));
    }

    [Fact]
    public void NoIdlePollLeavesTheSystemAloneAndSaysSo()
    {
        using var idle = CpuIdle.Hold(leave: true);

        Assert.False(idle.Polling);
        Assert.Equal("left to the system (--no-idle-poll)", idle.Description);
    }

    [Fact]
    public void AFileThatCannotBeHeldIsNamedWithWhatItCosts()
    {
        using var idle = CpuIdle.Hold(leave: false, Path.Combine(Path.GetTempPath(), $"no-such-dir-{Guid.NewGuid():N}", "cpu_dma_latency"));

        Assert.False(idle.Polling);
        Assert.StartsWith("left to the system: ", idle.Description);
        Assert.Contains("could not be held", idle.Description);
    }
}
