using System.Globalization;
using System.Net;
using System.Text;
using ProtocolBench.Lab;
using ProtocolBench.Lab.Scenarios;
using ProtocolBench.Shared.Clients;

namespace ProtocolBench.Benchmarks.Reporting;

/// <summary>
/// An inline SVG of the medians: one group of bars per operation, one bar per protocol and transport. Each group has its
/// own linear scale (operations differ by three orders of magnitude); the numbers are printed beside the bars.
/// </summary>
public static class BarChart
{
    private const int LabelWidth = 330;
    private const int BarArea = 430;
    private const int BarHeight = 11;
    private const int BarGap = 2;
    private const int GroupGap = 16;

    public static string Svg(ResultSet results)
    {
        var scenarios = Catalogue.All.Where(results.Has).ToList();
        var bars = Display.Columns().ToList();
        var groupHeight = bars.Count * (BarHeight + BarGap);
        var height = 40 + scenarios.Count * (groupHeight + GroupGap);
        var width = LabelWidth + BarArea + 90;
        var svg = new StringBuilder();
        svg.Append(CultureInfo.InvariantCulture,
            $"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" font-family=\"system-ui, sans-serif\" font-size=\"11\" role=\"img\" aria-label=\"Median time per operation, protocol and transport\">\n");

        // Legend: colour = protocol, solid = HTTP, pale = HTTPS.
        var x = LabelWidth;
        foreach (var (protocol, transport) in bars)
        {
            svg.Append(CultureInfo.InvariantCulture, $"<rect x=\"{x}\" y=\"8\" width=\"12\" height=\"10\" fill=\"{Display.Colour(protocol)}\" fill-opacity=\"{Opacity(transport)}\"/>");
            svg.Append(CultureInfo.InvariantCulture, $"<text x=\"{x + 16}\" y=\"17\">{Display.Of(protocol, transport)}</text>\n");
            x += 80;
        }

        var y = 40;
        foreach (var scenario in scenarios)
        {
            var cells = bars.Select(b => results.Find(scenario, b.Protocol, b.Transport)).ToList();
            var max = cells.Where(c => c is not null).Select(c => c!.Median).DefaultIfEmpty(1).Max();
            svg.Append(CultureInfo.InvariantCulture,
                $"<text x=\"{LabelWidth - 10}\" y=\"{y + groupHeight / 2 + 4}\" text-anchor=\"end\" font-weight=\"600\">{WebUtility.HtmlEncode(scenario.Short)}</text>\n");
            for (var i = 0; i < bars.Count; i++)
            {
                var barY = y + i * (BarHeight + BarGap);
                if (cells[i] is not { } cell)
                {
                    svg.Append(CultureInfo.InvariantCulture, $"<text x=\"{LabelWidth + 4}\" y=\"{barY + 9}\" fill=\"#999\">–</text>\n");
                    continue;
                }

                var length = Math.Max(1, cell.Median / max * BarArea);
                svg.Append(CultureInfo.InvariantCulture,
                    $"<rect x=\"{LabelWidth}\" y=\"{barY}\" width=\"{length:0.0}\" height=\"{BarHeight}\" fill=\"{Display.Colour(bars[i].Protocol)}\" fill-opacity=\"{Opacity(bars[i].Transport)}\"><title>{Display.Of(bars[i].Protocol, bars[i].Transport)}: {Format.Time(cell.Median)}</title></rect>");
                svg.Append(CultureInfo.InvariantCulture, $"<text x=\"{LabelWidth + length + 4:0.0}\" y=\"{barY + 9}\">{Format.Time(cell.Median)}</text>\n");
            }

            y += groupHeight + GroupGap;
        }

        return svg.Append("</svg>\n").ToString();
    }

    private static string Opacity(Transport transport) => transport == Transport.Http ? "1" : "0.45";
}
