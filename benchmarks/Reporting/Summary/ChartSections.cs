namespace ProtocolBench.Benchmarks.Reporting.Summary;

/// <summary>The summary's three charts (drawn in its HTML; the Markdown points to it).</summary>
internal static class ChartSections
{
    public static SummarySection RatioToRest(ResultSet results) =>
        new("Ratio to REST", $"Each protocol's time ÷ REST's on the same row, with its 95 % interval; the grey band is ±{Verdict.PracticalDifference:P0}: an interval reaching into it names no winner. " +
            "The text gives the wire bytes ÷ REST's too.", null, RatioChart.Svg(results));

    public static SummarySection Times(ResultSet results) =>
        new("Chart", "Time per operation, protocol and transport; each operation has its own scale.", null, BarChart.Svg(results));

    public static SummarySection ServerCpu(ResultSet results) =>
        new("Server CPU chart", "The table's CPU times; each operation has its own scale.", null, BarChart.ServerCpu(results));
}
