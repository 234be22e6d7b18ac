using System.Globalization;
using ProtocolBench.Lab;
using Spectre.Console;

namespace ProtocolBench.LoadTests.Reports;

/// <summary>The final tables in the terminal: every cell, the paced medians, the papers' findings, the checks.</summary>
public static class ConsoleReport
{
    public static void Write(RunReport r, string folder)
    {
        if (r.Users.Any(c => c.Measured))
        {
            var table = new Table().Title("[bold]virtual users[/]").Border(TableBorder.Rounded);
            foreach (var column in new[] { "scenario", "users", "protocol", "transport", "req/s", "mean ms", "p50", "p95", "p99", "max", "MB in", "MB out", "errors" })
            {
                table.AddColumn(new TableColumn(column) { Alignment = column is "scenario" or "protocol" or "transport" or "errors" ? Justify.Left : Justify.Right });
            }

            foreach (var c in r.Users)
            {
                table.AddRow(
                    c.Scenario.Name, c.Users.ToString(CultureInfo.InvariantCulture), Display.Of(c.Protocol), Display.Of(c.Transport),
                    F(c.RequestsPerSecond, 0), F(c.Latency.MeanMs), F(c.Latency.P50Ms), F(c.Latency.P95Ms), F(c.Latency.P99Ms), F(c.Latency.MaxMs),
                    F(c.MegabytesReceived), F(c.MegabytesSent),
                    Markup.Escape(c.Status == UserCell.Complete ? c.Requests.ErrorText : $"{c.Requests.ErrorText} ({c.Status})"));
            }

            AnsiConsole.Write(table);
        }

        if (r.Paced.Count > 0)
        {
            var table = new Table().Title("[bold]paced[/]").Border(TableBorder.Rounded);
            foreach (var column in new[] { "scenario", "protocol", "transport", "rate/s", "requests", "median ms", "mean", "p95", "min", "max", "errors" })
            {
                table.AddColumn(column);
            }

            foreach (var c in r.Paced)
            {
                table.AddRow(c.Scenario.Name, Display.Of(c.Protocol), Display.Of(c.Transport), F(c.Rate), c.Requests.Issued.ToString(CultureInfo.InvariantCulture),
                    F(c.MedianMs), F(c.MeanMs), F(c.P95Ms), F(c.MinMs), F(c.MaxMs), Markup.Escape(c.Status == UserCell.Complete ? c.Requests.ErrorText : $"{c.Requests.ErrorText} ({c.Status})"));
            }

            AnsiConsole.Write(table);
        }

        if (r.Findings.Count > 0)
        {
            var table = new Table().Title("[bold]compared with the papers[/]").Border(TableBorder.Rounded).AddColumn("finding").AddColumn("ours").AddColumn("verdict");
            foreach (var f in r.Findings)
            {
                var colour = f.Verdict.StartsWith(PaperFindings.Reproduced, StringComparison.Ordinal) ? "green"
                    : f.Verdict.StartsWith(PaperFindings.DirectionOnly, StringComparison.Ordinal) ? "yellow" : "grey";
                table.AddRow(Markup.Escape(f.Claim), Markup.Escape(f.Ours), $"[{colour}]{Markup.Escape(f.Verdict)}[/]");
            }

            AnsiConsole.Write(table);
        }

        if (r.DriverCheck is { } check)
        {
            var table = new Table().Title("[bold]driver check[/]").Border(TableBorder.Rounded)
                .AddColumn("endpoint").AddColumn("users").AddColumn("conns").AddColumn("tool").AddColumn("tool req/s").AddColumn("our req/s").AddColumn("ours ÷ tool");
            foreach (var row in check.Rows)
            {
                table.AddRow(Markup.Escape(row.Endpoint), row.Users.ToString(CultureInfo.InvariantCulture), row.Connections.ToString(CultureInfo.InvariantCulture), row.Tool,
                    row.Skipped is null ? F(row.Theirs, 0) : "–", row.Skipped is null ? F(row.Ours, 0) : "–",
                    row.Skipped is null ? $"[{(row.Ratio >= 0.9 ? "green" : "yellow")}]{row.Ratio:F2}[/]" : Markup.Escape(row.Skipped));
            }

            AnsiConsole.Write(table);
        }

        AnsiConsole.MarkupLine(r.TallyBalanced
            ? "[green]The tally balances[/] in every cell: issued = ok + failed + timed out + cancelled."
            : "[red]The tally does NOT balance[/]: see report.md.");
        foreach (var lost in r.NothingLostChecks)
        {
            AnsiConsole.MarkupLine($"{(lost.Failed ? "[red]" : lost.Passed ? "[green]" : "[yellow]")}Nothing lost[/] {Markup.Escape(lost.Prefix)}*: {Markup.Escape(lost.Verdict)}");
        }

        foreach (var problem in r.Problems)
        {
            AnsiConsole.MarkupLine($"[red]{Markup.Escape(problem)}[/]");
        }

        if (r.Interrupted)
        {
            AnsiConsole.MarkupLine($"[yellow]Interrupted ({Markup.Escape(r.InterruptReason ?? "")}): partial results.[/]");
        }

        AnsiConsole.MarkupLine($"Results: [link]{Markup.Escape(folder)}[/] (report.md, summary.json, CSV, SVG) after {r.Duration.TotalMinutes:F1} min");
    }

    private static string F(double value, int decimals = 2) =>
        double.IsFinite(value) ? value.ToString(decimals == 0 ? "N0" : "N" + decimals, CultureInfo.InvariantCulture) : "–";
}
