using System.Diagnostics;

namespace ProtocolBench.LoadTests;

/// <summary>
/// On two cores the driver and the services would otherwise take turns on both (SPEC §9: pin them apart and say so).
/// The services are started under taskset by the launcher; the driver pins all of its own threads with taskset -a,
/// and threads made later inherit it.
/// </summary>
public static class CpuPinning
{
    private const string TaskSet = "/usr/bin/taskset";

    public static (string? Driver, string? Servers) Plan(LoadTestOptions options)
    {
        var cores = Environment.ProcessorCount;
        if (options.NoPin || !OperatingSystem.IsLinux() || !File.Exists(TaskSet) || cores < 2)
        {
            return (null, null);
        }

        return (options.DriverCpus ?? "0", options.ServerCpus ?? (cores == 2 ? "1" : $"1-{cores - 1}"));
    }

    /// <summary>Pins every thread of this process; returns what the kernel reports afterwards, or why it could not.</summary>
    public static string PinSelf(string cpus)
    {
        try
        {
            using var process = Process.Start(new ProcessStartInfo(TaskSet)
            {
                ArgumentList = { "-a", "-p", "-c", cpus, Environment.ProcessId.ToString() },
                RedirectStandardOutput = true,
                RedirectStandardError = true,
            })!;
            var error = process.StandardError.ReadToEnd();
            process.StandardOutput.ReadToEnd();
            process.WaitForExit();
            return process.ExitCode == 0 ? $"CPU {Allowed()}" : $"not pinned ({error.Trim()})";
        }
        catch (Exception e) when (e is System.ComponentModel.Win32Exception or InvalidOperationException)
        {
            return $"not pinned ({e.Message})";
        }
    }

    /// <summary>The CPU list the kernel lets this process run on (Cpus_allowed_list), or "all".</summary>
    public static string Allowed()
    {
        const string status = "/proc/self/status";
        if (!File.Exists(status))
        {
            return "all";
        }

        return File.ReadLines(status).FirstOrDefault(l => l.StartsWith("Cpus_allowed_list:", StringComparison.Ordinal))?
            .Split(':', 2)[1].Trim() ?? "all";
    }

    /// <summary>Prefix for an external tool (wrk, h2load) so it runs where the driver runs.</summary>
    public static IEnumerable<string> Prefix(string? cpus) =>
        cpus is null || !File.Exists(TaskSet) ? [] : [TaskSet, "-c", cpus];
}
