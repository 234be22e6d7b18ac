using Spectre.Console;

namespace ProtocolBench.LoadTests.Reports;

/// <summary>The final tables in the terminal: every cell, the paced medians, the papers' findings, the checks.</summary>
public static class ConsoleReport
{
    public static void Write(RunReport r, string folder)
    {
        if (r.Users.Any(c => c.Measured))
        {
            Print("virtual users", LoadReport.UserCells(r.Users));
        }

        if (r.Paced.Count > 0)
        {
            Print("paced", LoadReport.PacedCells(r.Paced));
        }

        if (r.RateCells.Count > 0)
        {
            Print("open-loop rate sweep: saturation", RateReport.Saturation(r.RateCells, r.Settings));
        }

        if (r.Findings.Count > 0)
        {
            Print("compared with the papers", LoadReport.Findings(r.Findings));
            if (PaperFindings.PacedLine(r.Findings) is { } verdicts)
            {
                AnsiConsole.WriteLine(verdicts);
            }
        }

        if (r.DriverCheck is { } check)
        {
            Print("driver check", LoadReport.DriverCheck(check));
            if (check.Latency is { Count: > 0 } latency)
            {
                Print("driver check: latency at a fixed rate (ms)", LoadReport.LatencyCheck(latency));
            }
        }

        AnsiConsole.MarkupLine(r.TallyBalanced
            ? "[green]The tally balances[/] in every cell: issued = ok + failed + timed out + cancelled."
            : "[red]The tally does NOT balance[/]: see report.html.");
        foreach (var lost in r.NothingLostChecks)
        {
            AnsiConsole.MarkupLine($"{(lost.Failed ? "[red]" : lost.Passed ? "[green]" : "[yellow]")}Nothing lost[/] {Markup.Escape(lost.Prefix)}*: {Markup.Escape(lost.Verdict)}");
        }

        if (r.Cleanup is not null)
        {
            AnsiConsole.MarkupLine($"[grey]{Markup.Escape(r.Cleanup)}[/]");
        }

        foreach (var problem in r.Problems)
        {
            AnsiConsole.MarkupLine($"[red]{Markup.Escape(problem)}[/]");
        }

        if (r.Run.Interrupted is { } why)
        {
            AnsiConsole.MarkupLine($"[yellow]Interrupted ({Markup.Escape(why)}): partial results.[/]");
        }

        AnsiConsole.MarkupLine($"Results: [link]{Markup.Escape(folder)}[/] (report.html, report.md, summary.json, CSV, SVG) after {r.Run.Duration.TotalMinutes:F1} min");
    }

    /// <summary>The same tables as the report, as aligned text: one way to show a table on the console in both commands.</summary>
    private static void Print(string title, Lab.Reports.Table table)
    {
        AnsiConsole.MarkupLine($"[bold]{title}[/]");
        // Not through Spectre's text renderer, which would wrap the rows at the terminal's width.
        Console.WriteLine(table.ToText());
    }
}
