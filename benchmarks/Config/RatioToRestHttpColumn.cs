using BenchmarkDotNet.Columns;

namespace ProtocolBench.Benchmarks.Config;

/// <summary>
/// Median ÷ the median of REST over HTTP for the same operation. BenchmarkDotNet's own Ratio needs the baseline to be a
/// method in the same group; here protocol and transport are parameters, so the column finds the REST-HTTP case itself.
/// </summary>
public sealed class RatioToRestHttpColumn : IColumn
{
    public static readonly RatioToRestHttpColumn Instance = new();

    public string Id => "RatioToRestHttp";

    public string ColumnName => "Ratio";

    public bool AlwaysShow => true;

    public ColumnCategory Category => ColumnCategory.Baseline;

    public int PriorityInCategory => 0;

    public bool IsNumeric => true;

    public UnitType UnitType => UnitType.Dimensionless;

    public string Legend => "Median ÷ median of REST over HTTP for the same operation (REST's raw form for the binary files)";

    public static BenchmarkCase? RestHttpCase(Summary summary, BenchmarkCase benchmarkCase) =>
        summary.BenchmarksCases.FirstOrDefault(c =>
            Cell.HasProtocol(c) &&
            Cell.ScenarioOf(c) == Cell.ScenarioOf(benchmarkCase) &&
            Cell.ProtocolOf(c) == Protocol.Rest &&
            Cell.TransportOf(c) == Transport.Http);

    public string GetValue(Summary summary, BenchmarkCase benchmarkCase)
    {
        var baseline = RestHttpCase(summary, benchmarkCase);
        var median = summary[benchmarkCase]?.ResultStatistics?.Median;
        var baseMedian = baseline is null ? null : summary[baseline]?.ResultStatistics?.Median;
        return median is > 0 && baseMedian is > 0 ? (median.Value / baseMedian.Value).ToString("0.00") : "?";
    }

    public string GetValue(Summary summary, BenchmarkCase benchmarkCase, SummaryStyle style) => GetValue(summary, benchmarkCase);

    public bool IsDefault(Summary summary, BenchmarkCase benchmarkCase) => false;

    public bool IsAvailable(Summary summary) => true;

    public override string ToString() => ColumnName;
}
