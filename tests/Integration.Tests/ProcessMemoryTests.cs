using ProtocolBench.Lab.Costs;

namespace ProtocolBench.Integration.Tests;

/// <summary>The one reader of a process's memory (the tests' bounds and the load command's memory per connection) sees a peak that has passed, and starts it over when asked.</summary>
public sealed class ProcessMemoryTests
{
    private const int HeldMiB = 192;

    [Fact]
    public async Task APeakBetweenTwoReadsIsSeenAndStartsOverWhenAsked()
    {
        if (!OperatingSystem.IsLinux())
        {
            return;
        }

        // A process that fills 192 MiB, gives it back to the kernel (a block that large is its own mapping) and waits.
        using var child = Process.Start(new ProcessStartInfo("python3", ["-c", $"import sys\ns = b'x' * ({HeldMiB} << 20)\ndel s\nprint('given back', flush=True)\nsys.stdin.read()"])
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
        })!;
        try
        {
            Assert.Equal("given back", await child.StandardOutput.ReadLineAsync(Token).AsTask().WaitAsync(TimeSpan.FromSeconds(30), Token));
            var resident = ProcessMemory.ResidentKiB(child.Id)!.Value / 1024;
            var peak = ProcessMemory.PeakKiB(child.Id)!.Value / 1024;
            Assert.True(peak - resident >= HeldMiB * 3 / 4, $"peak {peak} MiB, resident now {resident} MiB: the {HeldMiB} MiB held in between was missed");

            Assert.True(ProcessMemory.StartPeak(child.Id));
            var after = ProcessMemory.PeakKiB(child.Id)!.Value / 1024;
            Assert.True(after - resident < HeldMiB / 4, $"peak {after} MiB after starting over, resident {resident} MiB");
        }
        finally
        {
            child.StandardInput.Close();
            await child.WaitForExitAsync(Token);
        }

        Assert.Null(ProcessMemory.ResidentKiB(child.Id));
        Assert.Null(ProcessMemory.PeakKiB(child.Id));
        Assert.False(ProcessMemory.StartPeak(child.Id));
    }
}
