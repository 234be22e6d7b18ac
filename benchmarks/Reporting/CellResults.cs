using BenchmarkDotNet.Engines;
using BenchmarkDotNet.Reports;
using ProtocolBench.Benchmarks.Suite;
using ProtocolBench.Shared.Clients;

namespace ProtocolBench.Benchmarks.Reporting;

/// <summary>One measured cell: an operation on one protocol and transport.</summary>
public sealed record CellResult(
    string Class,
    string Method,
    Protocol Protocol,
    Transport Transport,
    bool Success,
    double Median,
    double Mean,
    double P95,
    double StdDev,
    IReadOnlyList<double> Iterations,
    long? AllocatedPerOp,
    WireSample? Wire)
{
    public static IReadOnlyList<CellResult> From(IEnumerable<Summary> summaries) =>
        summaries.SelectMany(s => s.Reports).Select(From).ToList();

    public static CellResult From(BenchmarkReport report)
    {
        var benchmarkCase = report.BenchmarkCase;
        var stats = report.Success ? report.ResultStatistics : null;
        var iterations = report.AllMeasurements
            .Where(m => m.IterationMode == IterationMode.Workload && m.IterationStage == IterationStage.Result)
            .Select(m => m.Nanoseconds / m.Operations)
            .ToList();
        return new CellResult(
            benchmarkCase.Descriptor.Type.Name,
            benchmarkCase.Descriptor.WorkloadMethod.Name,
            (Protocol)benchmarkCase.Parameters["Protocol"],
            (Transport)benchmarkCase.Parameters["Transport"],
            stats is not null,
            stats?.Median ?? double.NaN,
            stats?.Mean ?? double.NaN,
            stats?.Percentiles.P95 ?? double.NaN,
            stats?.StandardDeviation ?? double.NaN,
            iterations,
            report.Success ? report.GcStats.GetBytesAllocatedPerOperation(benchmarkCase) : null,
            BenchmarkContext.Wire.Find(benchmarkCase));
    }
}

/// <summary>The cells of a run, looked up by scenario, protocol and transport.</summary>
public sealed class ResultSet(IReadOnlyList<CellResult> cells)
{
    public IReadOnlyList<CellResult> Cells { get; } = cells;

    public CellResult? Find(Scenario scenario, Protocol protocol, Transport transport) =>
        Cells.FirstOrDefault(c => c.Class == scenario.Class && c.Method == scenario.Method && c.Protocol == protocol && c.Transport == transport && c.Success);

    public bool Has(Scenario scenario) => Cells.Any(c => c.Class == scenario.Class && c.Method == scenario.Method);

    /// <summary>The fastest protocol of a row on one transport, and whether it is significantly faster than the runner-up.</summary>
    public Winner? WinnerOf(Scenario scenario, Transport transport)
    {
        var ranked = Names.Protocols.Select(p => Find(scenario, p, transport)).OfType<CellResult>().OrderBy(c => c.Median).ToList();
        if (ranked.Count < 2)
        {
            return null;
        }

        return new Winner(ranked[0], ranked[1], Significance.Compare(ranked[0].Iterations, ranked[1].Iterations));
    }

    /// <summary>REST against gRPC as the paper compared them: "REST", "gRPC" or "both" (within 10 % or not significant).</summary>
    public Verdict? VerdictOf(Scenario scenario, Transport transport)
    {
        var rest = Find(scenario, Protocol.Rest, transport);
        var grpc = Find(scenario, Protocol.Grpc, transport);
        if (rest is null || grpc is null)
        {
            return null;
        }

        var (fast, slow) = rest.Median <= grpc.Median ? (rest, grpc) : (grpc, rest);
        var difference = slow.Median / fast.Median - 1;
        var significance = Significance.Compare(fast.Iterations, slow.Iterations);
        if (significance.P is null)
        {
            // One sample a side (the smoke job): a faster median is not a verdict, and must not count as reproducing one.
            return new Verdict(Verdict.Untested, difference, significance);
        }

        var clear = difference >= Verdict.PracticalDifference && significance.IsSignificant;
        return new Verdict(clear ? Names.Of(fast.Protocol) : Scenario.Both, difference, significance);
    }
}

public sealed record Winner(CellResult Fastest, CellResult RunnerUp, Significance Significance)
{
    public double Margin => RunnerUp.Median / Fastest.Median - 1;
}

public sealed record Verdict(string Says, double Difference, Significance Significance)
{
    /// <summary>The paper called 22 vs 21 ms and 76 vs 82 ms "both" and 75 vs 66 ms a gRPC win: about a 10 % line.</summary>
    public const double PracticalDifference = 0.10;

    /// <summary>Too few samples to test the difference: no verdict.</summary>
    public const string Untested = "no verdict (too few samples)";
}
