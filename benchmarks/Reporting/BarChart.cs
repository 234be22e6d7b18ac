using ProtocolBench.Lab;
using ProtocolBench.Lab.Charts;
using ProtocolBench.Lab.Scenarios;
using ProtocolBench.Shared.Clients;

namespace ProtocolBench.Benchmarks.Reporting;

/// <summary>The medians as the shared chart module draws them: a panel per scenario, a bar per protocol and transport.</summary>
public static class BarChart
{
    public static string Svg(ResultSet results)
    {
        var columns = Display.Columns().ToList();
        var panels = Catalogue.All.Where(results.Has).Select(scenario => new Panel(
            scenario.Short,
            columns.Select(c => results.Find(scenario, c.Protocol, c.Transport) is { } cell
                ? Bar(c.Protocol, c.Transport, cell.Time, Format.Time(cell.Time))
                : Bar(c.Protocol, c.Transport, double.NaN, "–")).ToList())).ToList();
        return SvgChart.Panels(
            "Time per operation (each operation on its own scale)",
            columns.Select(c => (Display.Of(c.Protocol, c.Transport), Display.Colour(c.Protocol), c.Transport == Transport.Https)).ToList(),
            panels);
    }

    private static PanelBar Bar(Protocol protocol, Transport transport, double value, string text) =>
        new(Display.Of(protocol, transport), Display.Colour(protocol), transport == Transport.Https, value, text);
}
