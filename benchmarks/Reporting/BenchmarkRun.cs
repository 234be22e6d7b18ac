namespace ProtocolBench.Benchmarks.Reporting;

/// <summary>The run description both commands share, and what only the benchmark command has: its job, rounds and restarts.</summary>
public sealed record BenchmarkRun : RunDescription
{
    public required string Job { get; init; }

    /// <summary>How many rounds were planned at most (the cells say how many were measured).</summary>
    public int Rounds { get; init; } = 1;

    /// <summary>The rounds' design: fixed, or rows stopping when settled; null in files of versions before it (fixed).</summary>
    public RoundDesign? Design { get; init; }

    /// <summary>The seed of the rounds' shuffled orders (--seed).</summary>
    public int Seed { get; init; }

    /// <summary>When the services were restarted, e.g. "before every round (4 restarts, 3.9–4.4 s each)".</summary>
    public string Restarts { get; init; } = "never";

    /// <summary>The cells the --client stack cannot make, one entry per reason ("why (III Int32 max SignalR HTTP, …)"); not measured by any client.</summary>
    public IReadOnlyList<string> NotMade { get; init; } = [];

    public string BenchmarkDotNet { get; init; } =
        typeof(BenchmarkDotNet.Running.BenchmarkSwitcher).Assembly.GetName().Version?.ToString(3) ?? "?";
}
