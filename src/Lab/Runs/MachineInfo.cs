using System.Runtime;
using System.Runtime.InteropServices;

namespace ProtocolBench.Lab.Runs;

/// <summary>The machine a run measured on, as every report states it.</summary>
public sealed record MachineInfo(string Cpu, int Cores, double MemoryGiB, string Host, string OperatingSystem, string Runtime)
{
    public static MachineInfo Current()
    {
        string? cpu = null;
        try
        {
            cpu = File.Exists("/proc/cpuinfo")
                ? File.ReadLines("/proc/cpuinfo").FirstOrDefault(l => l.StartsWith("model name", StringComparison.Ordinal))?.Split(':', 2)[1].Trim()
                : null;
        }
        catch (IOException)
        {
        }

        return new MachineInfo(
            cpu ?? RuntimeInformation.ProcessArchitecture.ToString(),
            Environment.ProcessorCount,
            Math.Round(GC.GetGCMemoryInfo().TotalAvailableMemoryBytes / (1024.0 * 1024 * 1024), 1),
            Environment.MachineName,
            RuntimeInformation.OSDescription,
            $"{RuntimeInformation.FrameworkDescription} {RuntimeInformation.ProcessArchitecture}, " +
            $"{(GCSettings.IsServerGC ? "server" : "workstation")} GC in the client" +
            (AppContext.GetData("System.Runtime.TieredCompilation") is { } tiered && tiered.ToString() is "false" or "False"
                ? ", tiered compilation off in the client (each method compiled once, optimised: nothing compiled in the background while measuring)"
                : ""));
    }

    public string Describe() => $"{Cpu}, {Cores} logical cores, {MemoryGiB:0} GiB RAM, {Host}";
}
