namespace ProtocolBench.Lab.Costs;

/// <summary>
/// The check of the server cost, as both commands' reports state it: the services' CPU time over every reading, by their
/// runtimes' account (what the reports show) against the kernel's over the same windows.
/// </summary>
public static class CpuAccounts
{
    public static string Check(IEnumerable<CostPerOp?> readings)
    {
        var costs = readings.OfType<CostPerOp>().Where(c => double.IsFinite(c.KernelCpuMicros)).ToList();
        if (costs.Count == 0)
        {
            return "No reading had the kernel's account to check it with (no /proc).";
        }

        var runtime = costs.Sum(c => c.ServerCpuMicros * c.Operations) / 1e6;
        var kernel = costs.Sum(c => c.KernelCpuMicros * c.Operations) / 1e6;
        return $"The check: over the {costs.Count} readings of this run, the services' runtimes counted {runtime:F2} s of CPU and the kernel " +
               $"(/proc/PID/stat, 10 ms steps) {kernel:F2} s over the same windows: {Format.SignedPercent((runtime - kernel) / kernel)} by the runtime's account.";
    }
}
