using System.Runtime;
using System.Runtime.InteropServices;

namespace ProtocolBench.Benchmarks.Reporting;

/// <summary>What a reader needs to know to trust or repeat a run.</summary>
public sealed record RunInfo
{
    public required string Job { get; init; }

    public required string Database { get; init; }

    public required string Services { get; init; }

    public required string Pinning { get; init; }

    public required string HttpVersions { get; init; }

    public required string CommandLine { get; init; }

    public required DateTimeOffset Started { get; init; }

    public DateTimeOffset Finished { get; init; }

    public string Machine { get; init; } = DescribeMachine();

    public string OperatingSystem { get; init; } = RuntimeInformation.OSDescription;

    public string Runtime { get; init; } =
        $"{RuntimeInformation.FrameworkDescription} {RuntimeInformation.ProcessArchitecture}, " +
        $"{(GCSettings.IsServerGC ? "server" : "workstation")} GC in the client";

    public string BenchmarkDotNet { get; init; } =
        typeof(BenchmarkDotNet.Running.BenchmarkSwitcher).Assembly.GetName().Version?.ToString(3) ?? "?";

    public static string DescribeMachine()
    {
        var cpu = "unknown CPU";
        try
        {
            if (File.Exists("/proc/cpuinfo"))
            {
                cpu = File.ReadLines("/proc/cpuinfo").FirstOrDefault(l => l.StartsWith("model name", StringComparison.Ordinal))?.Split(':', 2)[1].Trim() ?? cpu;
            }
        }
        catch (IOException)
        {
        }

        var memory = GC.GetGCMemoryInfo().TotalAvailableMemoryBytes / (1024.0 * 1024 * 1024);
        return $"{cpu}, {Environment.ProcessorCount} logical cores, {memory:0} GiB RAM, {Environment.MachineName}";
    }
}
