using BenchmarkDotNet.Columns;

namespace ProtocolBench.Benchmarks.Config;

/// <summary>
/// A metric of the suite's diagnosers, as BenchmarkDotNet formats it: times in nanoseconds, sizes and counts in bytes or
/// units. A metric that is not <paramref name="shown"/> is in the report but not a column of BenchmarkDotNet's tables.
/// </summary>
public sealed class MetricKind(string id, string displayName, string legend, UnitType unitType, string numberFormat, int priority, bool shown = true)
    : IMetricDescriptor
{
    public string Id => id;

    public string DisplayName => displayName;

    public string Legend => legend;

    public string NumberFormat => numberFormat;

    public UnitType UnitType => unitType;

    public string Unit => unitType switch
    {
        UnitType.Size => "B",
        UnitType.Time => "ns",
        _ => "",
    };

    public bool TheGreaterTheBetter => false;

    public int PriorityInCategory => priority;

    public bool GetIsAvailable(Metric metric) => shown;
}
