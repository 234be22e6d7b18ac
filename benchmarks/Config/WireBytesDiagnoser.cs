using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Diagnosers;

namespace ProtocolBench.Benchmarks.Config;

/// <summary>
/// Bytes on the wire per operation as BenchmarkDotNet metrics, like the server cost (<see cref="ServerCostDiagnoser"/>):
/// each cell's set-up measures the call it is about to time and records it in the run's <see cref="WireTally"/> (the one
/// hop BenchmarkDotNet, which makes the benchmark classes itself, leaves open), and this puts it in the cell's report.
/// Every column, progress line and table then reads the bytes from the report, as it reads the times (<see cref="WireOf"/>).
/// </summary>
public sealed class WireBytesDiagnoser(WireTally tally) : MetricDiagnoser
{
    private static readonly MetricKind Total = new(
        "WireBytesPerOp", "Wire bytes/op",
        "Bytes sent + received at the client's socket per operation (plaintext on HTTP, TLS records on HTTPS), averaged over serial " +
        "operations on a warm connection: connection setup excluded",
        UnitType.Dimensionless, "N0", 0);

    private static readonly MetricKind Sent = new("WireSentPerOp", "Wire sent/op", "Of those, the bytes sent", UnitType.Dimensionless, "N0", 0, shown: false);

    private static readonly MetricKind Calls = new("WireCalls", "Wire calls", "How many serial operations the bytes are averaged over", UnitType.Dimensionless, "N0", 0, shown: false);

    public override IEnumerable<string> Ids => ["WireBytes"];

    /// <summary>The bytes per operation a cell's report holds, or null when its set-up measured none.</summary>
    public static WireSample? WireOf(BenchmarkReport report) =>
        report.Metrics.TryGetValue(Total.Id, out var total) && report.Metrics.TryGetValue(Sent.Id, out var sent) && report.Metrics.TryGetValue(Calls.Id, out var calls)
            ? new WireSample(sent.Value, total.Value - sent.Value, (int)calls.Value)
            : null;

    public override RunMode GetRunMode(BenchmarkCase benchmarkCase) => Cell.HasProtocol(benchmarkCase) ? RunMode.NoOverhead : RunMode.None;

    public override IEnumerable<Metric> ProcessResults(DiagnoserResults results) =>
        tally.Take(results.BenchmarkCase) is { } sample
            ? [new Metric(Total, sample.TotalPerOp), new Metric(Sent, sample.SentPerOp), new Metric(Calls, sample.Operations)]
            : [];
}
