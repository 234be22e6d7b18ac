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

    /// <summary>How many rounds were planned (the cells say how many were measured).</summary>
    public int Rounds { get; init; } = 1;

    /// <summary>The seed of the rounds' shuffled orders (--seed).</summary>
    public int Seed { get; init; }

    /// <summary>When the services were restarted, e.g. "before every round (4 restarts, 3.9–4.4 s each)".</summary>
    public string Restarts { get; init; } = "never";

    public required DateTimeOffset Started { get; init; }

    public DateTimeOffset Finished { get; init; }

    /// <summary>Why the run stopped early (Ctrl+C, SIGTERM), or null when it ran to the end.</summary>
    public string? Interrupted { get; init; }

    public MachineInfo Machine { get; init; } = MachineInfo.Current();

    public string BenchmarkDotNet { get; init; } =
        typeof(BenchmarkDotNet.Running.BenchmarkSwitcher).Assembly.GetName().Version?.ToString(3) ?? "?";
}
