using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;
using ProtocolBench.Benchmarks.Suite;

namespace ProtocolBench.Benchmarks.Cli;

/// <summary>
/// What the rounds measured: BenchmarkDotNet's summaries per round, the bytes on the wire per cell, how long each restart
/// took (s), and the cells an interruption kept from being measured (their reports are failures, not results).
/// </summary>
public sealed record MeasuredRounds(
    IReadOnlyList<(int Round, IReadOnlyList<Summary> Summaries)> Rounds, WireTally Wire, IReadOnlyList<double> Restarts, IReadOnlySet<BenchmarkCase> Unreached);
