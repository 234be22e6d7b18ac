using ProtocolBench.Lab;

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

    /// <summary>Why the run stopped early (Ctrl+C, SIGTERM), or null when it ran to the end.</summary>
    public string? Interrupted { get; init; }

    public MachineInfo Machine { get; init; } = MachineInfo.Current();

    public string BenchmarkDotNet { get; init; } =
        typeof(BenchmarkDotNet.Running.BenchmarkSwitcher).Assembly.GetName().Version?.ToString(3) ?? "?";
}
