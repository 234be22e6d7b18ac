using System.ComponentModel;

namespace ProtocolBench.Lab.Costs;

/// <summary>
/// A process's resident memory from Linux's own accounting, for the tests' memory bounds and the load command's memory per
/// connection: the resident set now (VmRSS) and the most it has held since <see cref="StartPeak"/> (VmHWM). The peak is
/// the kernel's, so a spike between two reads is not missed as a sampler would miss it.
/// </summary>
public static class ProcessMemory
{
    /// <summary>
    /// Starts the process's peak over at its resident set now, by writing 5 to /proc/PID/clear_refs (proc(5)): by hand,
    /// because .NET's <see cref="Process"/> reads the peak (PeakWorkingSet64) but cannot reset it. False where it cannot:
    /// not Linux, the process has ended, or it is not this user's.
    /// </summary>
    public static bool StartPeak(int processId)
    {
        try
        {
            File.WriteAllText($"/proc/{processId}/clear_refs", "5");
            return true;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return false;
        }
    }

    /// <summary>The resident set (VmRSS) in KiB; null where it cannot be read (not Linux, the process has ended).</summary>
    public static long? ResidentKiB(int processId) => Read(processId, static p => p.WorkingSet64);

    /// <summary>The most the process has held resident (VmHWM) since <see cref="StartPeak"/> or its start, in KiB; null as above.</summary>
    public static long? PeakKiB(int processId) => Read(processId, static p => p.PeakWorkingSet64);

    private static long? Read(int processId, Func<Process, long> bytes)
    {
        if (!OperatingSystem.IsLinux())
        {
            return null;
        }

        try
        {
            using var process = Process.GetProcessById(processId);
            return bytes(process) / 1024;
        }
        catch (Exception e) when (e is ArgumentException or InvalidOperationException or Win32Exception)
        {
            return null;
        }
    }
}
