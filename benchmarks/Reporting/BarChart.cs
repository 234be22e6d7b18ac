using ProtocolBench.Lab.Charts;

namespace ProtocolBench.Benchmarks.Reporting;

/// <summary>The medians as the shared chart module draws them: a panel per scenario, a bar per protocol and transport.</summary>
public static class BarChart
{
    public static string Svg(ResultSet results) =>
        Panels(results, "Time per operation (each operation on its own scale)", cell => cell.Time);

    /// <summary>The services' CPU time per operation, the same way; null when no cell's cost was read.</summary>
    public static string? ServerCpu(ResultSet results) => results.Cells.Any(c => c.Costs.Any())
        ? Panels(results, "Server CPU time per operation (each operation on its own scale)", cell => cell.ServerCpuMicros * 1e3)
        : null;

    /// <param name="nanoseconds">The value of a cell, in nanoseconds; NaN: no bar.</param>
    private static string Panels(ResultSet results, string title, Func<CellResult, double> nanoseconds)
    {
        var columns = Display.Columns().ToList();
        var panels = Catalogue.All.Where(results.Has).Select(scenario => new Panel(
            scenario.Short,
            columns.Select(c => results.Find(scenario, c.Protocol, c.Transport) is { } cell && nanoseconds(cell) is var value && double.IsFinite(value)
                ? Bar(c.Protocol, c.Transport, value, Format.Time(value))
                : Bar(c.Protocol, c.Transport, double.NaN, "–")).ToList())).ToList();
        return SvgChart.Panels(
            title,
            columns.Select(c => (Display.Of(c.Protocol, c.Transport), Display.Colour(c.Protocol), c.Transport == Transport.Https)).ToList(),
            panels);
    }

    private static PanelBar Bar(Protocol protocol, Transport transport, double value, string text) =>
        new(Display.Of(protocol, transport), Display.Colour(protocol), transport == Transport.Https, value, text);
}
