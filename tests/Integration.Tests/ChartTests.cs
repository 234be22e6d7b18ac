using System.Globalization;
using System.Xml.Linq;
using ProtocolBench.Lab.Charts;

namespace ProtocolBench.Integration.Tests;

/// <summary>The line chart's axes: a logarithmic one keeps the steps under a bound apart when one step is far above it.</summary>
public sealed class ChartTests
{
    private static readonly XNamespace Svg = "http://www.w3.org/2000/svg";

    private static readonly ChartSeries Sweep = new("REST HTTP", "#1f77b4", false, [(0, 1.6), (1, 2.1), (2, 4.0), (3, 2_400)]);

    [Fact]
    public void LogarithmicAxisSpansTheValuesInOneTwoFiveStepsAndDrawsTheBound()
    {
        var chart = XDocument.Parse(SvgChart.Lines("p99", "rate", "ms", [Sweep], ["25", "50", "100", "200"], logarithmic: true, threshold: new Threshold(100, "bound 100 ms")));

        var labels = GridLabels(chart);
        Assert.Equal(["1", "10", "100", "1,000", "5,000"], labels);
        Assert.Contains(chart.Descendants(Svg + "text"), t => t.Value == "bound 100 ms");

        // 1.6 and 4.0 ms are 36 px apart (0.4 of a decade), not 0.3 px as on a linear axis up to 3,000.
        var heights = chart.Descendants(Svg + "circle").Select(c => double.Parse(c.Attribute("cy")!.Value, CultureInfo.InvariantCulture)).ToList();
        Assert.True(heights[0] - heights[2] > 30, $"1.6 ms at y={heights[0]}, 4.0 ms at y={heights[2]}");
    }

    [Fact]
    public void LinearAxisStartsAtZero()
    {
        var chart = XDocument.Parse(SvgChart.Lines("p99", "rate", "ms", [Sweep], ["25", "50", "100", "200"]));

        Assert.Equal(["0", "500", "1,000", "1,500", "2,000", "2,500", "3,000"], GridLabels(chart));
    }

    /// <summary>The y axis's labels, bottom to top: the text ending at the plot's left edge.</summary>
    private static List<string> GridLabels(XDocument chart) => chart.Descendants(Svg + "text")
        .Where(t => t.Attribute("text-anchor")?.Value == "end" && t.Attribute("x")?.Value == "66")
        .OrderByDescending(t => double.Parse(t.Attribute("y")!.Value, CultureInfo.InvariantCulture))
        .Select(t => t.Value).ToList();
}
