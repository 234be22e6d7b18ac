using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;
using ProtocolBench.Benchmarks.Suite;

namespace ProtocolBench.Benchmarks.Config;

/// <summary>Bytes at the client's socket per operation (request + response), measured in GlobalSetup.</summary>
public sealed class WireBytesColumn(WireTally wire) : IColumn
{
    public string Id => "WireBytesPerOp";

    public string ColumnName => "Wire bytes/op";

    public bool AlwaysShow => true;

    public ColumnCategory Category => ColumnCategory.Custom;

    public int PriorityInCategory => 0;

    public bool IsNumeric => true;

    public UnitType UnitType => UnitType.Dimensionless;

    public string Legend =>
        "Bytes sent + received at the client's socket per operation (plaintext on HTTP, TLS records on HTTPS), " +
        "averaged over serial operations on a warm connection: connection setup excluded";

    public string GetValue(Summary summary, BenchmarkCase benchmarkCase) =>
        wire.Find(benchmarkCase) is { } sample ? sample.TotalPerOp.ToString("N0") : "?";

    public string GetValue(Summary summary, BenchmarkCase benchmarkCase, SummaryStyle style) => GetValue(summary, benchmarkCase);

    public bool IsDefault(Summary summary, BenchmarkCase benchmarkCase) => false;

    public bool IsAvailable(Summary summary) => true;

    public override string ToString() => ColumnName;
}
