using System.Globalization;
using System.Xml.Linq;
using ProtocolBench.Lab.Charts;

namespace ProtocolBench.Integration.Tests;

/// <summary>
/// The line chart's axes: a logarithmic one keeps the steps under a bound apart when one step is far above it. The matrix:
/// its colour scale, tier 1 framed, and a width that holds its text (wide) or fits a phone (narrow).
/// </summary>
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

    [Fact]
    public void MatrixColoursRunFromPaleAtOneToDarkestFromTheCap()
    {
        Assert.Equal("#ffffcc", SvgMatrix.Colour(1));
        Assert.Equal("#ffffcc", SvgMatrix.Colour(0.9));
        Assert.Equal("#800026", SvgMatrix.Colour(SvgMatrix.Cap));
        Assert.Equal("#800026", SvgMatrix.Colour(40));
        var lightness = new[] { 1, 1.1, 1.25, 1.5, 2, 3, 4 }.Select(r => Lightness(SvgMatrix.Colour(r))).ToList();
        Assert.Equal(lightness.OrderByDescending(l => l), lightness);
        Assert.Equal(lightness.Count, lightness.Distinct().Count());
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void MatrixFramesTierOneAndSizesItselfToItsText(bool narrow)
    {
        MatrixCell Cell(string text, double ratio, int tier) => new(text, ratio, tier, $"{text}, tier {tier}");
        var ranking = "SignalR MessagePack ~ gRPC › REST › GraphQL ? SignalR";
        var note = "not apart: SignalR MessagePack ? REST, gRPC ? REST · also undecided: SignalR MessagePack ? GraphQL · 2 more (Undecided pairs)";
        MatrixRow[] rows =
        [
            new("IV 10,000 ints", "HTTP", [Cell("0.587 ms", 2.6, 2), Cell("0.222 ms", 1, 1), null, Cell("failed", double.NaN, 0), Cell("0.226 ms", 1.02, 1)], ranking, note),
            new("IV 10,000 ints", "HTTPS", [Cell("0.670 ms", 2.5, 2), Cell("0.279 ms", 1.03, 1), Cell("0.861 ms", 3.2, 3), Cell("0.955 ms", 3.5, 3), Cell("0.271 ms", 1, 1)], ranking, null),
        ];

        var chart = XDocument.Parse(SvgMatrix.Draw("Which protocol is faster", ["REST", "gRPC", "GraphQL", "SignalR", "SignalR MessagePack"], rows, ["a legend line"], narrow));

        var framed = chart.Descendants(Svg + "rect").Where(r => r.Attribute("stroke-width") is not null).Select(r => r.Element(Svg + "title")!.Value).ToList();
        Assert.Equal(["0.222 ms, tier 1", "0.226 ms, tier 1", "0.279 ms, tier 1", "0.271 ms, tier 1"], framed);
        var texts = chart.Descendants(Svg + "text").Select(t => t.Value).ToList();
        Assert.Contains("failed", texts);
        Assert.Contains("–", texts);
        // The ranking and the note, wrapped where they are longer than their column: every word is there, in order.
        var all = string.Join(" ", texts);
        Assert.Contains(narrow ? $"HTTP: {ranking}" : ranking, all);
        Assert.Contains(note, all);
        var width = double.Parse(chart.Root!.Attribute("width")!.Value, CultureInfo.InvariantCulture);
        // The phone's layout fits a 390 px screen; the wide one the report's page (1,320 px) without shrinking.
        Assert.True(narrow ? width <= 390 : width is > 800 and <= 1320, $"{width} px wide");
    }

    /// <summary>A run interrupted before its first cell: the report was not written at all (Max of no rows; the command aborted, exit 134).</summary>
    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void MatrixWithoutRowsSaysNoCellWasMeasured(bool narrow)
    {
        var chart = XDocument.Parse(SvgMatrix.Draw("Which protocol is faster", ["REST", "gRPC"], [], ["a legend line"], narrow));

        Assert.Contains("No cell was measured.", chart.Descendants(Svg + "text").Select(t => t.Value));
    }

    /// <summary>A colour's lightness, 0 to 255: the mean of its channels.</summary>
    private static double Lightness(string hex) =>
        Enumerable.Range(0, 3).Average(i => Convert.ToInt32(hex.Substring(1 + 2 * i, 2), 16));

    /// <summary>The y axis's labels, bottom to top: the text ending at the plot's left edge.</summary>
    private static List<string> GridLabels(XDocument chart) => chart.Descendants(Svg + "text")
        .Where(t => t.Attribute("text-anchor")?.Value == "end" && t.Attribute("x")?.Value == "66")
        .OrderByDescending(t => double.Parse(t.Attribute("y")!.Value, CultureInfo.InvariantCulture))
        .Select(t => t.Value).ToList();
}
