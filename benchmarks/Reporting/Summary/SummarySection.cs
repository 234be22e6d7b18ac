namespace ProtocolBench.Benchmarks.Reporting.Summary;

/// <summary>One section of the summary: its title, what it says first, and its table or its chart (null: the run has nothing for it, and the section is left out).</summary>
public sealed record SummarySection(string Title, string Intro, Table? Table, string? Svg)
{
    public bool IsEmpty => Table is null && Svg is null;
}
