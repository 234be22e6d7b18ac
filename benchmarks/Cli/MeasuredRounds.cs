namespace ProtocolBench.Benchmarks.Cli;

/// <summary>
/// What the rounds measured: each round's results (times, server cost and wire bytes alike), how long each restart took (s), and
/// the cells an interruption kept from being measured (their reports are failures, not results).
/// </summary>
public sealed record MeasuredRounds(IReadOnlyList<MeasuredRound> Rounds, IReadOnlyList<double> Restarts, IReadOnlySet<BenchmarkCase> Unreached)
{
    /// <summary>The cells the --client stack cannot make, and why: not measured by any client.</summary>
    public IReadOnlyList<(BenchmarkCase Case, string Why)> NotMade { get; init; } = [];
}
