namespace ProtocolBench.Lab.Costs;

/// <summary>
/// What one operation cost, averaged over a window of many: the service's CPU time and allocations by its own account,
/// the same CPU time by the kernel's account (the check), and the client's CPU time.
/// </summary>
/// <param name="Operations">The operations in the window.</param>
/// <param name="ServerCpuMicros">Service CPU time per operation (user + system), µs.</param>
/// <param name="ServerAllocatedBytes">Bytes the service allocated per operation.</param>
/// <param name="KernelCpuMicros">Service CPU per operation from /proc/PID/stat over the same window (10 ms steps at each end); NaN without /proc.</param>
/// <param name="ClientCpuMicros">This process's CPU time per operation over the window (every thread: the client's work and the harness's); NaN if not read.</param>
/// <param name="Precise">Both readings were taken while the service was idle (<see cref="ServerReading.Precise"/>).</param>
public sealed record CostPerOp(
    long Operations,
    double ServerCpuMicros,
    double ServerAllocatedBytes,
    double KernelCpuMicros,
    double ClientCpuMicros,
    bool Precise)
{
    /// <summary>The cost per operation between two readings of the same service, with the client's CPU seconds over the window.</summary>
    public static CostPerOp Between(ServerReading before, ServerReading after, long operations, double clientCpuSeconds = double.NaN)
    {
        var n = Math.Max(operations, 1);
        return new CostPerOp(
            operations,
            (after.CpuSeconds - before.CpuSeconds) * 1e6 / n,
            (double)(after.AllocatedBytes - before.AllocatedBytes) / n,
            after.KernelSeconds - before.KernelSeconds is { } kernel ? kernel * 1e6 / n : double.NaN,
            clientCpuSeconds * 1e6 / n,
            before.Precise && after.Precise);
    }
}
