using ProtocolBench.Lab.Charts;

namespace ProtocolBench.Benchmarks.Reporting.Summary;

/// <summary>The summary's charts: the matrix first (also matrix.svg beside the report), then three drawn in its HTML (the Markdown points to it).</summary>
internal static class ChartSections
{
    public static SummarySection Matrix(ResultSet results) =>
        new("The answer at a glance",
            "A row per operation and transport, a column per protocol: each cell's time (the geometric mean of its rounds' medians), coloured by " +
            $"its time ÷ the row's fastest on a log scale (darkest from {SvgMatrix.Cap:0}×); tier 1 of the row's ranking framed; beside each row its " +
            "ranking, and under it the undecided pairs that line does not show. The intervals are in the table below. " +
            $"The same picture is {MatrixChart.FileName} in the results folder.",
            null, MatrixChart.Svg(results), MatrixChart.Svg(results, narrow: true), $"![The answer at a glance]({MatrixChart.FileName})");

    public static SummarySection RatioToRest(ResultSet results) =>
        new("Ratio to REST", $"Each protocol's time ÷ REST's on the same row, with its 95 % interval; the grey band is ±{Verdict.PracticalDifference:P0}: an interval reaching into it names no winner. " +
            "The text gives the wire bytes ÷ REST's too.", null, RatioChart.Svg(results));

    public static SummarySection Times(ResultSet results) =>
        new("Chart", "Time per operation, protocol and transport; each operation has its own scale.", null, BarChart.Svg(results));

    public static SummarySection ServerCpu(ResultSet results) =>
        new("Server CPU chart", "The table's CPU times; each operation has its own scale.", null, BarChart.ServerCpu(results));
}
