namespace ProtocolBench.LoadTests.Studies;

/// <summary>
/// The resident memory of the service that served a cell: at the cell's start, before its users connect, and the most it
/// held while they were connected (the kernel's peak, <see cref="ProcessMemory"/>); per connection, the growth ÷ the
/// connections the cell opened. The growth is the process's, garbage the runtime has not yet collected included, so it
/// bounds what a connection costs from above.
/// </summary>
public sealed record ServiceMemory(double StartMiB, double PeakMiB, int Connections)
{
    /// <summary>The growth over the cell's start per connection, in KiB; null without connections.</summary>
    public double? KiBPerConnection => Connections > 0 ? Math.Max(0, PeakMiB - StartMiB) * 1024 / Connections : null;

    /// <summary>
    /// Reads the process's resident memory now and starts its peak over; null where that cannot be done (not Linux, no
    /// process: --external services).
    /// </summary>
    public static Reading? Start(int? processId) =>
        processId is { } pid && ProcessMemory.StartPeak(pid) && ProcessMemory.ResidentKiB(pid) is { } start ? new Reading(pid, start) : null;

    /// <summary>A cell's reading of one service's memory, from its start.</summary>
    public sealed class Reading(int processId, long startKiB)
    {
        /// <summary>The memory at the start and the most since, for <paramref name="connections"/>; the start twice if the process has ended.</summary>
        public ServiceMemory End(int connections) =>
            new(startKiB / 1024.0, Math.Max(startKiB, ProcessMemory.PeakKiB(processId) ?? startKiB) / 1024.0, connections);
    }
}
