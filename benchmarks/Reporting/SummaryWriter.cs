using System.Globalization;
using System.Net;
using System.Text;
using ProtocolBench.Lab;
using ProtocolBench.Lab.Scenarios;
using ProtocolBench.Shared.Clients;

namespace ProtocolBench.Benchmarks.Reporting;

/// <summary>The ProtocolBench summary: summary.md and a self-contained summary.html, from the same tables.</summary>
public sealed class SummaryWriter(ResultSet results, RunInfo run)
{
    public const string MarkdownFile = "summary.md";
    public const string HtmlFile = "summary.html";

    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    public Table PaperTable()
    {
        var table = new Table(
            "Scenario", "REST HTTP ms (paper)", "gRPC HTTP ms (paper)", "REST HTTPS ms (paper)", "gRPC HTTPS ms (paper)",
            "GraphQL HTTP ms", "GraphQL HTTPS ms", "Fastest on HTTP", "Fastest on HTTPS");
        foreach (var scenario in Catalogue.All.Where(results.Has))
        {
            var http = results.WinnerOf(scenario, Transport.Http);
            var https = results.WinnerOf(scenario, Transport.Https);
            TableCell Cell(Protocol protocol, Transport transport, double? paper)
            {
                var cell = results.Find(scenario, protocol, transport);
                var text = cell is null ? "–" : Format.Milliseconds(cell.Median);
                if (paper is { } value)
                {
                    text += $" ({value.ToString(Invariant)})";
                }

                var winner = transport == Transport.Http ? http : https;
                return new TableCell(text, winner is not null && winner.Fastest == cell);
            }

            var p = scenario.Paper;
            table.Add(
                scenario.Label,
                Cell(Protocol.Rest, Transport.Http, p?.RestHttp),
                Cell(Protocol.Grpc, Transport.Http, p?.GrpcHttp),
                Cell(Protocol.Rest, Transport.Https, p?.RestHttps),
                Cell(Protocol.Grpc, Transport.Https, p?.GrpcHttps),
                Cell(Protocol.GraphQL, Transport.Http, null),
                Cell(Protocol.GraphQL, Transport.Https, null),
                Describe(http),
                Describe(https));
        }

        return table;
    }

    public (Table Table, int Reproduced, int Compared, List<string> Which) VerdictTable()
    {
        var table = new Table("Scenario", "Paper, no TLS", "Ours, no TLS", "Same?", "Paper, TLS", "Ours, TLS", "Same?");
        int reproduced = 0, compared = 0;
        var which = new List<string>();
        foreach (var scenario in Catalogue.All.Where(s => s.Paper is not null && results.Has(s)))
        {
            var paper = scenario.Paper!;
            var cells = new List<TableCell> { scenario.Label };
            foreach (var (transport, says) in new[] { (Transport.Http, paper.VerdictHttp), (Transport.Https, paper.VerdictHttps) })
            {
                var verdict = results.VerdictOf(scenario, transport);
                cells.Add(says);
                if (verdict is null)
                {
                    cells.Add("–");
                    cells.Add("–");
                    continue;
                }

                if (verdict.Says == Verdict.Untested)
                {
                    cells.Add(verdict.Says);
                    cells.Add("–");
                    continue;
                }

                compared++;
                var same = verdict.Says == says;
                if (same)
                {
                    reproduced++;
                    which.Add($"{scenario.Short.Split(' ')[0]} {(transport == Transport.Http ? "without" : "with")} TLS ({says})");
                }

                cells.Add($"{verdict.Says} ({Format.Ratio(1 + verdict.Difference)}, {ShortTest(verdict.Significance)})");
                cells.Add(new TableCell(same ? "yes" : "no", same));
            }

            table.Add([.. cells]);
        }

        return (table, reproduced, compared, which);
    }

    public Table CellTable()
    {
        var table = new Table("Operation", "Protocol", "Transport", "Median", "Mean", "P95", "Ratio to REST HTTP", "Allocated/op", "Wire bytes/op");
        foreach (var scenario in Catalogue.All.Where(results.Has))
        {
            var restHttp = results.Find(scenario, Protocol.Rest, Transport.Http);
            foreach (var transport in Display.Transports)
            {
                foreach (var protocol in Display.Protocols)
                {
                    var cell = results.Cells.FirstOrDefault(c => c.Scenario == scenario && c.Protocol == protocol && c.Transport == transport);
                    if (cell is null)
                    {
                        continue;
                    }

                    if (!cell.Success)
                    {
                        table.Add(scenario.Short, Display.Of(protocol), Display.Of(transport), new TableCell("FAILED", true), "", "", "", "", "");
                        continue;
                    }

                    table.Add(
                        scenario.Short,
                        Display.Of(protocol),
                        Display.Of(transport),
                        Format.Time(cell.Median),
                        Format.Time(cell.Mean),
                        Format.Time(cell.P95),
                        restHttp is null ? "?" : (cell.Median / restHttp.Median).ToString("0.00", Invariant),
                        cell.AllocatedPerOp is { } allocated ? Format.Size(allocated) : "?",
                        cell.Wire is { } wire ? Format.Bytes(wire.TotalPerOp) : "?");
                }
            }
        }

        return table;
    }

    public Table FloorTable()
    {
        var floor = Catalogue.Floor;
        var table = new Table(["Operation ÷ floor", .. Columns().Select(c => Display.Of(c.Protocol, c.Transport))]);
        table.Add(["Floor median", .. Columns().Select(c => (TableCell)(results.Find(floor, c.Protocol, c.Transport) is { } f ? Format.Time(f.Median) : "–"))]);
        foreach (var scenario in Catalogue.All.Where(s => s != Catalogue.Floor && results.Has(s)))
        {
            table.Add([scenario.Short, .. Columns().Select(c =>
            {
                var cell = results.Find(scenario, c.Protocol, c.Transport);
                var f = results.Find(floor, c.Protocol, c.Transport);
                return (TableCell)(cell is null || f is null ? "–" : Format.Ratio(cell.Median / f.Median));
            })]);
        }

        return table;
    }

    public Table WireTable()
    {
        var table = new Table(["Operation (bytes/op; × REST on the same transport)", .. Columns().Select(c => Display.Of(c.Protocol, c.Transport))]);
        foreach (var scenario in Catalogue.All.Where(results.Has))
        {
            table.Add([scenario.Short, .. Columns().Select(c =>
            {
                var wire = results.Find(scenario, c.Protocol, c.Transport)?.Wire;
                var rest = results.Find(scenario, Protocol.Rest, c.Transport)?.Wire;
                if (wire is null)
                {
                    return (TableCell)"–";
                }

                return (TableCell)(rest is null ? Format.Bytes(wire.TotalPerOp) : $"{Format.Bytes(wire.TotalPerOp)} ({Format.Ratio(wire.TotalPerOp / rest.TotalPerOp)})");
            })]);
        }

        var floor = Catalogue.Floor;
        table.Add(["Connection setup, once per connection", .. Columns().Select(c =>
            (TableCell)(results.Find(floor, c.Protocol, c.Transport)?.Wire?.ConnectionSetup is { } setup ? Format.Bytes(setup) : "–"))]);
        return table;
    }

    public Table EnvironmentTable() => new Table("", "")
        .Add("Machine", run.Machine.Describe())
        .Add("Operating system", run.Machine.OperatingSystem)
        .Add("Runtime", run.Machine.Runtime)
        .Add("BenchmarkDotNet", $"{run.BenchmarkDotNet}, in-process toolchain (client), services as separate processes")
        .Add("Services", run.Services)
        .Add("Database", run.Database)
        .Add("Pinning", run.Pinning)
        .Add("HTTP versions", run.HttpVersions)
        .Add("Job", run.Job)
        .Add("Command", run.CommandLine)
        .Add("Started", run.Started.ToString("yyyy-MM-dd HH:mm:ss zzz", Invariant))
        .Add("Duration", Format.Duration(run.Finished - run.Started));

    /// <summary>Writes both files; returns the console digest.</summary>
    public string Write(string directory, IReadOnlyList<string> reportFiles)
    {
        var paper = PaperTable();
        var (verdicts, reproduced, compared, which) = VerdictTable();
        var measured = results.Cells.Count(c => c.Success);
        var failed = results.Cells.Count(c => !c.Success);
        var headline = $"{measured} cells measured{(failed > 0 ? $", {failed} FAILED" : "")}; job {run.Job}." +
                       (run.Interrupted is { } why ? $" Interrupted ({why}): partial results." : "");
        var verdictLine = compared == 0
            ? results.Has(Catalogue.All.First(s => s.Paper is not null))
                ? "No verdict of the paper could be compared: this job has too few samples per cell to test a difference (use the default job or --job short)."
                : "No verdict of the paper could be compared (REST and gRPC cells of scenarios I–VII are missing)."
            : $"We reproduce {reproduced} of the paper's {compared} verdicts{(which.Count > 0 ? ": " + string.Join("; ", which) : "")}.";

        var sections = new List<(string Title, string Intro, Table? Table, string? Html)>
        {
            ("Environment", "", EnvironmentTable(), null),
            ("Medians beside the paper",
                "Our medians in milliseconds, laid out like Bolanowski et al. 2022 (docs/methodology.md, \"The papers\"); the paper's medians in parentheses " +
                "(two machines on a LAN, JMeter, 1 request/s). Bold: the fastest protocol on that transport. \"Fastest\" names the " +
                "winner, its margin over the runner-up and whether the difference is statistically significant (α = 0.05).",
                paper, null),
            ("Verdicts (the paper's Table 1)",
                $"REST against gRPC as the paper compared them: the faster one wins when it is at least {Verdict.PracticalDifference:P0} faster " +
                $"and the difference is significant; otherwise \"both\". {verdictLine}",
                verdicts, null),
            ("Chart", "Median per operation, protocol and transport; each operation has its own scale.", null, BarChart.Svg(results)),
            ("Every cell",
                "Median, mean and 95th percentile of the per-operation time; ratio of medians to REST over HTTP; bytes the client " +
                "allocated per operation (MemoryDiagnoser, client process only); bytes at the client's socket per operation.",
                CellTable(), null),
            ("Above the transport floor",
                "Each median divided by the floor (GET /baseline, fixed bytes) on the same service port and HTTP version: how much " +
                "of an operation is the protocol and its work rather than the round trip itself.",
                FloorTable(), null),
            ("Bytes on the wire per operation",
                "Request + response bytes at the client's socket (plaintext on HTTP, TLS records on HTTPS; no TCP/IP headers), averaged " +
                "over serial operations on an already open connection; the ratio is to REST on the same transport. The last row is " +
                "what opening a connection costs once (TLS handshake, HTTP/2 preface and settings).",
                WireTable(), null),
        };

        var notes = new[]
        {
            "Every timed invocation is one complete request and response, checked before it counts (value, length and first, middle " +
            "and last element); full responses (SHA-256 of the files, every author against the seed) are verified once per cell before timing.",
            "Client and services run on one machine over loopback unless --external was used; the paper used two machines over a LAN, " +
            "so our absolute times are lower and the protocol overheads weigh relatively more.",
            "Significance: Mann–Whitney U on the per-iteration means for 5+ iterations, Welch's t-test for 2–4 (Perfolizer); none for a smoke run.",
            "Authors created by \"Create author\" are deleted after each cell.",
            "Where the three services differ (everything else is the same code in Shared.Domain, the same validation and the same " +
            "single SQL query per read): GraphQL POSTs a query document on every call, so its requests are larger; GraphQL is served " +
            "by graphql-dotnet 8.8.5 through the project's own GraphQL-over-HTTP endpoint, because HotChocolate is not available " +
            "from this build's package source; GraphQL resolvers call the same EF Core projection as REST and gRPC instead of " +
            "DataLoaders, so a query that omits books still loads them; gRPC adds HTTP/2 and protobuf framing and, over plain HTTP, " +
            "uses h2c while REST and GraphQL use HTTP/1.1 (see HTTP versions above); files travel as base64 in JSON for REST and " +
            "GraphQL (a third larger) and as a protobuf bytes field for gRPC, and only REST (/raw) and gRPC (StreamPdf, 64 KiB " +
            "chunks) have a binary form.",
        };

        var markdown = new StringBuilder();
        markdown.AppendLine("# ProtocolBench results").AppendLine();
        markdown.AppendLine(headline).AppendLine();
        markdown.AppendLine(verdictLine).AppendLine();
        foreach (var (title, intro, table, html) in sections)
        {
            markdown.AppendLine($"## {title}").AppendLine();
            if (intro.Length > 0)
            {
                markdown.AppendLine(intro).AppendLine();
            }

            if (table is not null)
            {
                markdown.AppendLine(table.ToMarkdown());
            }
            else if (html is not null)
            {
                markdown.AppendLine($"See [{HtmlFile}]({HtmlFile}).").AppendLine();
            }
        }

        markdown.AppendLine("## Notes").AppendLine();
        foreach (var note in notes)
        {
            markdown.AppendLine($"- {note}");
        }

        markdown.AppendLine().AppendLine("## BenchmarkDotNet reports").AppendLine();
        foreach (var file in reportFiles)
        {
            markdown.AppendLine($"- [{file}]({Uri.EscapeDataString(file).Replace("%2F", "/")})");
        }

        File.WriteAllText(Path.Combine(directory, MarkdownFile), markdown.ToString());

        var page = new StringBuilder();
        page.AppendLine("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>ProtocolBench results</title>");
        page.AppendLine("""
            <style>
            body { font-family: system-ui, -apple-system, sans-serif; margin: 2rem auto; max-width: 1200px; padding: 0 1rem; color: #222; }
            h1 { margin-bottom: .2rem; } h2 { margin-top: 2.2rem; border-bottom: 1px solid #ddd; padding-bottom: .2rem; }
            table { border-collapse: collapse; font-size: 13px; margin: .6rem 0; }
            th, td { border: 1px solid #ddd; padding: 3px 8px; text-align: right; white-space: nowrap; }
            th { background: #f4f4f4; } td:first-child, th:first-child { text-align: left; white-space: normal; }
            tbody tr:nth-child(even) { background: #fafafa; } strong { color: #0b5; }
            p.lead { font-size: 1.05rem; } .note { color: #555; font-size: 13px; }
            </style>
            </head>
            <body>
            <h1>ProtocolBench results</h1>
            """);
        page.AppendLine($"<p class=\"lead\">{WebUtility.HtmlEncode(headline)}</p>");
        page.AppendLine($"<p class=\"lead\">{WebUtility.HtmlEncode(verdictLine)}</p>");
        foreach (var (title, intro, table, html) in sections)
        {
            page.AppendLine($"<h2>{WebUtility.HtmlEncode(title)}</h2>");
            if (intro.Length > 0)
            {
                page.AppendLine($"<p class=\"note\">{WebUtility.HtmlEncode(intro)}</p>");
            }

            page.AppendLine(table?.ToHtml() ?? html);
        }

        page.AppendLine("<h2>Notes</h2>\n<ul class=\"note\">");
        foreach (var note in notes)
        {
            page.AppendLine($"<li>{WebUtility.HtmlEncode(note)}</li>");
        }

        page.AppendLine("</ul>\n<h2>BenchmarkDotNet reports</h2>\n<ul>");
        foreach (var file in reportFiles)
        {
            page.AppendLine($"<li><a href=\"{WebUtility.HtmlEncode(file)}\">{WebUtility.HtmlEncode(file)}</a></li>");
        }

        page.AppendLine("</ul>\n</body>\n</html>");
        File.WriteAllText(Path.Combine(directory, HtmlFile), page.ToString());

        return $"{paper.ToText()}\n{headline}\n{verdictLine}\n";
    }

    private static IEnumerable<(Protocol Protocol, Transport Transport)> Columns() => Display.Columns();

    private static string Describe(Winner? winner)
    {
        if (winner is null)
        {
            return "–";
        }

        var significance = winner.Significance.P is null ? "untested" : winner.Significance.IsSignificant ? Format.P(winner.Significance.P.Value) : $"not significant, {Format.P(winner.Significance.P.Value)}";
        return $"{Display.Of(winner.Fastest.Protocol)} by {winner.Margin.ToString("P0", Invariant)} over {Display.Of(winner.RunnerUp.Protocol)} ({significance})";
    }

    private static string ShortTest(Significance significance) =>
        significance.P is { } p ? Format.P(p) : "untested";
}
