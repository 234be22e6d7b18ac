using BenchmarkDotNet.Engines;
using BenchmarkDotNet.Reports;

namespace ProtocolBench.Benchmarks.Reporting;

/// <summary>One cell in one round: BenchmarkDotNet's statistics of its iterations (nanoseconds per operation).</summary>
public sealed record RoundResult(int Round, bool Success, double Median, double Mean, double P95, IReadOnlyList<double> Iterations, long? AllocatedPerOp)
{
    public static RoundResult From(int round, BenchmarkReport report)
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
            stats is null ? null : report.GcStats.GetBytesAllocatedPerOperation(report.BenchmarkCase));
    }
}
