using BenchmarkDotNet.Reports;
using ProtocolBench.Benchmarks.Suite;

namespace ProtocolBench.Benchmarks.Cli;

/// <summary>What the rounds measured: BenchmarkDotNet's summaries per round, the bytes on the wire per cell, and how long each restart took (s).</summary>
public sealed record MeasuredRounds(IReadOnlyList<(int Round, IReadOnlyList<Summary> Summaries)> Rounds, WireTally Wire, IReadOnlyList<double> Restarts);
