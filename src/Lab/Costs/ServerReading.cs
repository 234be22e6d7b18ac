namespace ProtocolBench.Lab.Costs;

/// <summary>
/// What a service had spent up to one instant, by its own account (the runtime's collection at or after that instant)
/// and by the kernel's.
/// </summary>
/// <param name="UserSeconds">dotnet.process.cpu.time, cpu.mode=user.</param>
/// <param name="SystemSeconds">dotnet.process.cpu.time, cpu.mode=system.</param>
/// <param name="AllocatedBytes">dotnet.gc.heap.total_allocated: every byte the process's managed code allocated so far.</param>
/// <param name="KernelSeconds">utime + stime from /proc/PID/stat just after that collection (10 ms steps); null without /proc.</param>
/// <param name="Precise">
/// The collection was taken while the service was still idle after the instant. False when the runtime's collection
/// thread woke so late that the next requests had already begun: then the reading holds some of them.
/// </param>
public sealed record ServerReading(double UserSeconds, double SystemSeconds, long AllocatedBytes, double? KernelSeconds, bool Precise)
{
    public double CpuSeconds => UserSeconds + SystemSeconds;
}
