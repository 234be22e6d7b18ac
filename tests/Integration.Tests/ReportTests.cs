using ProtocolBench.Lab.Reports;

namespace ProtocolBench.Integration.Tests;

/// <summary>The one report writer of both commands: the same blocks as Markdown and, through Markdig, as an HTML page.</summary>
public sealed class ReportTests
{
    private static Report Sample() => new Report("Sample results")
        .Lead("REST is faster on every row.")
        .Section("Times")
        .Note("Milliseconds; bold: the winner.")
        .Add(new Table("Operation", "REST", "gRPC").Add("Search | 11", new TableCell("1.20", Strong: true), "1.50"))
        .Figure("<svg xmlns=\"http://www.w3.org/2000/svg\"><rect width=\"4\" height=\"4\"/>\n\n<text>ratio</text></svg>", "See [the page](sample.html).");

    [Fact]
    public void MarkdownHasTheTableWithItsWinnerAndLinksTheChart()
    {
        var markdown = Sample().ToMarkdown();

        Assert.StartsWith("# Sample results", markdown);
        Assert.Contains("| Operation | REST | gRPC |", markdown);
        Assert.Contains("|---|---:|---:|", markdown);
        Assert.Contains("| Search \\| 11 | **1.20** | 1.50 |", markdown);
        Assert.Contains("See [the page](sample.html).", markdown);
        Assert.DoesNotContain("<svg", markdown);
        Assert.DoesNotContain("{.note}", markdown);
    }

    [Fact]
    public void HtmlRendersTheSameTableAndTheChartInline()
    {
        var html = Sample().ToHtml();

        Assert.Contains("<title>Sample results</title>", html);
        Assert.Contains("<p class=\"lead\">REST is faster on every row.</p>", html);
        Assert.Contains("<p class=\"note\">Milliseconds; bold: the winner.</p>", html);
        Assert.Contains("<th>Operation</th>", html);
        Assert.Contains("<td>Search | 11</td>", html);
        Assert.Contains("<strong>1.20</strong>", html);
        Assert.Contains("<text>ratio</text></svg>", html);
        Assert.DoesNotContain("See [the page]", html);
    }

    [Fact]
    public void TheConsoleGetsTheSameRowsAligned()
    {
        var text = new Table("Operation", "REST") { TextColumns = 1 }.Add("Search", "1.20").Add("Create author", "12.5").ToText().Split('\n');

        Assert.Equal("Operation      REST", text[0].TrimEnd());
        Assert.Equal("Search         1.20", text[1].TrimEnd());
        Assert.Equal("Create author  12.5", text[2].TrimEnd());
    }

    [Fact]
    public void TrailingTextColumnsAlignLeftInMarkdownHtmlAndText()
    {
        var table = new Table("Operation", "REST", "Ranking") { TrailingTextColumns = 1 }
            .Add("Search", "1.20", "gRPC › REST 1.5×")
            .Add("Create author", "12.5", "REST ≈ gRPC");

        Assert.Contains("|---|---:|:---|", table.ToMarkdown());
        Assert.Contains("<td style=\"text-align: left;\">REST ≈ gRPC</td>", new Report("Rankings").Add(table).ToHtml());
        var text = table.ToText().Split('\n');
        Assert.Equal("Search         1.20  gRPC › REST 1.5×", text[1]);
        Assert.Equal("Create author  12.5  REST ≈ gRPC", text[2]);
    }

    [Fact]
    public void AFigureWithAPhonesDrawingShowsOneOfTheTwoByTheScreensWidth()
    {
        var report = new Report("Matrix").Figure("<svg id=\"wide\"></svg>", "![matrix](matrix.svg)", narrow: "<svg id=\"narrow\"></svg>");

        var html = report.ToHtml();
        Assert.Contains("<div class=\"figure\"><div class=\"wide\"><svg id=\"wide\"></svg></div><div class=\"narrow\"><svg id=\"narrow\"></svg></div></div>", html);
        Assert.Contains("@media (max-width: 720px) { .figure .wide { display: none; } .figure .narrow { display: block; } }", html);
        Assert.Contains("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">", html);
        Assert.Contains("![matrix](matrix.svg)", report.ToMarkdown());
        Assert.DoesNotContain("<svg", report.ToMarkdown());
    }
}
