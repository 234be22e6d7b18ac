namespace ProtocolBench.Benchmarks.Reporting.Summary;

/// <summary>One section of the summary: its title, what it says first, and its table or its chart (null: the run has nothing for it, and the section is left out).</summary>
/// <param name="NarrowSvg">The chart drawn for a phone, shown instead on a narrow screen; null: the one chart scales.</param>
/// <param name="Markdown">What summary.md shows for the chart; null: a link to summary.html.</param>
public sealed record SummarySection(string Title, string Intro, Table? Table, string? Svg, string? NarrowSvg = null, string? Markdown = null)
{
    public bool IsEmpty => Table is null && Svg is null;
}
