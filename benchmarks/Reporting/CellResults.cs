using BenchmarkDotNet.Engines;
using BenchmarkDotNet.Reports;
using ProtocolBench.Benchmarks.Suite;
using ProtocolBench.Lab;
using ProtocolBench.Lab.Scenarios;
using ProtocolBench.Shared.Clients;

namespace ProtocolBench.Benchmarks.Reporting;

/// <summary>One measured cell: an operation on one protocol and transport.</summary>
public sealed record CellResult(
    Scenario Scenario,
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
    public static IReadOnlyList<CellResult> From(IEnumerable<Summary> summaries, WireTally wire) =>
        summaries.SelectMany(s => s.Reports).Select(r => From(r, wire)).ToList();

    public static CellResult From(BenchmarkReport report, WireTally wire)
    {
        var benchmarkCase = report.BenchmarkCase;
        var stats = report.Success ? report.ResultStatistics : null;
        var iterations = report.AllMeasurements
            .Where(m => m.IterationMode == IterationMode.Workload && m.IterationStage == IterationStage.Result)
            .Select(m => m.Nanoseconds / m.Operations)
            .ToList();
        return new CellResult(
            Cell.ScenarioOf(benchmarkCase),
            Cell.ProtocolOf(benchmarkCase),
            Cell.TransportOf(benchmarkCase),
            stats is not null,
            stats?.Median ?? double.NaN,
            stats?.Mean ?? double.NaN,
            stats?.Percentiles.P95 ?? double.NaN,
            stats?.StandardDeviation ?? double.NaN,
            iterations,
            report.Success ? report.GcStats.GetBytesAllocatedPerOperation(benchmarkCase) : null,
            wire.Find(benchmarkCase));
    }
}

/// <summary>The cells of a run, looked up by scenario, protocol and transport.</summary>
public sealed class ResultSet(IReadOnlyList<CellResult> cells)
{
    public IReadOnlyList<CellResult> Cells { get; } = cells;

    public CellResult? Find(Scenario scenario, Protocol protocol, Transport transport) =>
        Cells.FirstOrDefault(c => c.Scenario == scenario && c.Protocol == protocol && c.Transport == transport && c.Success);

    public bool Has(Scenario scenario) => Cells.Any(c => c.Scenario == scenario);

    /// <summary>The fastest protocol of a row on one transport, and whether it is significantly faster than the runner-up.</summary>
    public Winner? WinnerOf(Scenario scenario, Transport transport)
    {
        var ranked = Display.Protocols.Select(p => Find(scenario, p, transport)).OfType<CellResult>().OrderBy(c => c.Median).ToList();
        return ranked.Count < 2 ? null : new Winner(ranked[0], ranked[1], Significance.Compare(ranked[0].Iterations, ranked[1].Iterations));
    }

    /// <summary>REST against gRPC as the paper compared them, by the one verdict rule (<see cref="Verdict"/>).</summary>
    public Verdict? VerdictOf(Scenario scenario, Transport transport) =>
        (Find(scenario, Protocol.Rest, transport), Find(scenario, Protocol.Grpc, transport)) is ({ } rest, { } grpc)
            ? Verdict.Of(Side(rest), Side(grpc))
            : null;

    private static (string, double, IReadOnlyList<double>) Side(CellResult cell) => (Display.Of(cell.Protocol), cell.Median, cell.Iterations);
}

public sealed record Winner(CellResult Fastest, CellResult RunnerUp, Significance Significance)
{
    public double Margin => RunnerUp.Median / Fastest.Median - 1;
}
