using ProtocolBench.Lab.Charts;

namespace ProtocolBench.Benchmarks.Reporting;

/// <summary>Each protocol's time ÷ REST's per row, with its interval, as the shared chart module draws them; wire bytes beside.</summary>
public static class RatioChart
{
    public static string Svg(ResultSet results)
    {
        var others = Display.Protocols.Where(p => p != Protocol.Rest).ToList();
        var rows = results.Rows()
            .Select(row => new IntervalRow(
                $"{row.Scenario.Short}, {Display.Of(row.Transport)}",
                others.Select(p => results.Find(row.Scenario, p, row.Transport) is { } cell && results.RatioToRest(cell) is { } ratio
                        ? new IntervalMark(Display.Of(p), Display.Colour(p), ratio.Ratio, ratio.Low, ratio.High, $"{ratio}{Bytes(results, cell)}")
                        : null)
                    .OfType<IntervalMark>()
                    .ToList()))
            .Where(row => row.Marks.Count > 0)
            .ToList();
        return SvgChart.Intervals(
            "Time ÷ REST's on the same row, with 95 % intervals (log scale)",
            others.Select(p => (Display.Of(p), Display.Colour(p))).ToList(),
            rows,
            Verdict.PracticalDifference);
    }

    private static string Bytes(ResultSet results, CellResult cell) =>
        cell.Wire is { } wire && results.Find(cell.Scenario, Protocol.Rest, cell.Transport)?.Wire is { } rest
            ? $" · bytes {Format.Ratio(wire.TotalPerOp / rest.TotalPerOp)}"
            : "";
}
