using System.Diagnostics;

namespace ProtocolBench.Integration.Tests.Infrastructure;

public static class Processes
{
    /// <summary>Whether a process with this id is alive (a service a test expects to be gone).</summary>
    public static bool IsRunning(int pid)
    {
        try
        {
            using var process = Process.GetProcessById(pid);
            return !process.HasExited;
        }
        catch (ArgumentException)
        {
            return false;
        }
    }
}
