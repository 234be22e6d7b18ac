using System.Text.Json.Serialization;
using BenchmarkDotNet.Engines;
using ProtocolBench.Benchmarks.Config;

namespace ProtocolBench.Benchmarks.Reporting;

/// <summary>
/// One cell in one round: BenchmarkDotNet's statistics of its iterations (nanoseconds per operation), the client's
/// allocations (first round), what the operations cost the service (<see cref="ServerCostDiagnoser"/>), and the bytes on
/// the wire its set-up measured (<see cref="WireBytesDiagnoser"/>; a cell's result keeps its last round's).
/// </summary>
public sealed record RoundResult(
    int Round, bool Success, double Median, double Mean, double P95, IReadOnlyList<double> Iterations, long? AllocatedPerOp, CostPerOp? Cost = null,
    [property: JsonIgnore] WireSample? Wire = null)
{
    /// <param name="cost">What the cell's operations cost the service in this round (<see cref="ServerCostDiagnoser.TakeRound"/>), or null.</param>
    public static RoundResult From(int round, BenchmarkReport report, CostPerOp? cost = null)
    {
        var stats = report.Success ? report.ResultStatistics : null;
        var iterations = report.AllMeasurements
            .Where(m => m.IterationMode == IterationMode.Workload && m.IterationStage == IterationStage.Result)
            .Select(m => m.Nanoseconds / m.Operations)
            .ToList();
        return new RoundResult(
            round,
            stats is not null,
            stats?.Median ?? double.NaN,
            stats?.Mean ?? double.NaN,
            stats?.Percentiles.P95 ?? double.NaN,
            iterations,
            stats is null ? null : report.GcStats.GetBytesAllocatedPerOperation(report.BenchmarkCase),
            stats is null ? null : cost,
            WireBytesDiagnoser.WireOf(report));
    }
}
