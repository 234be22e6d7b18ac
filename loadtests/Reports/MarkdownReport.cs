using System.Globalization;
using System.Text;
using ProtocolBench.Lab;

namespace ProtocolBench.LoadTests.Reports;

/// <summary>report.md: setup, checks, one table and three charts per scenario, the paced series, and the papers beside ours.</summary>
public static class MarkdownReport
{
    public static string Render(RunReport r, IReadOnlyList<string> files)
    {
        var md = new StringBuilder();
        md.AppendLine("# ProtocolBench load study").AppendLine();
        md.AppendLine($"Run `{r.RunId}`, {r.Started:yyyy-MM-dd HH:mm:ss} → {r.Finished:HH:mm:ss} UTC ({r.Duration.TotalMinutes:F1} min), mode `{r.Mode}`" +
                      (r.Settings.Quick ? " (`--quick`: a small bounded run, not a study)" : "") + ".").AppendLine();
        md.AppendLine($"```\n{r.Command}\n```").AppendLine();
        if (r.Interrupted)
        {
            md.AppendLine($"> **Interrupted ({r.InterruptReason}): partial results.** Cells that did not finish are marked.").AppendLine();
        }

        foreach (var problem in r.Problems)
        {
            md.AppendLine($"> **Problem:** {problem.Replace("\n", " ")}").AppendLine();
        }

        Setup(md, r);
        Checks(md, r);
        if (r.Users.Any(c => c.Measured))
        {
            Users(md, r);
        }

        if (r.Paced.Count > 0)
        {
            Paced(md, r);
        }

        if (r.Findings.Count > 0)
        {
            Findings(md, r.Findings);
        }

        if (r.DriverCheck is { } check)
        {
            md.AppendLine("## Driver check").AppendLine();
            md.Append(DriverCheckResult.Markdown(check)).AppendLine();
        }

        md.AppendLine("## Files").AppendLine();
        md.AppendLine(string.Join(", ", files.Append("cells.jsonl").Select(f => $"`{f}`"))).AppendLine();
        return md.ToString();
    }

    /// <summary>Requests per second at the largest number of users: one row per scenario, one column per protocol and transport.</summary>
    public static string ThroughputTable(IReadOnlyList<UserCell> cells)
    {
        var measured = cells.Where(c => c.Measured).ToList();
        if (measured.Count == 0)
        {
            return "";
        }

        var top = measured.Max(c => c.Users);
        var combos = measured.Select(c => (c.Protocol, c.Transport)).Distinct().Order().ToList();
        var md = new StringBuilder();
        md.AppendLine($"| requests/s at {top} users | " + string.Join(" | ", combos.Select(k => Display.Of(k.Protocol, k.Transport))) + " |");
        md.AppendLine("|---|" + string.Concat(combos.Select(_ => "---:|")));
        foreach (var scenario in measured.Select(c => c.Scenario).Distinct())
        {
            var row = combos.Select(k => measured.FirstOrDefault(c => c.Scenario == scenario && c.Users == top && (c.Protocol, c.Transport) == k));
            md.AppendLine($"| {scenario.Label} | " + string.Join(" | ", row.Select(c => c is null ? "–" : Bold(c, measured, top))) + " |");
        }

        return md.ToString();
    }

    private static string Bold(UserCell c, List<UserCell> all, int users)
    {
        var best = all.Where(o => o.Scenario == c.Scenario && o.Users == users && o.Transport == c.Transport).Max(o => o.RequestsPerSecond);
        var text = c.RequestsPerSecond.ToString("N0", CultureInfo.InvariantCulture);
        return c.RequestsPerSecond == best ? $"**{text}**" : text;
    }

    private static void Setup(StringBuilder md, RunReport r)
    {
        var s = r.Settings;
        md.AppendLine("## Setup").AppendLine();
        md.AppendLine("| | |").AppendLine("|---|---|");
        md.AppendLine($"| machine | {r.Machine.Host.Describe()}, {r.Machine.Host.OperatingSystem}, {r.Machine.Host.Runtime} |");
        md.AppendLine($"| pinning | driver: {r.Machine.DriverCpus}; services: {r.Machine.ServerCpus} |");
        md.AppendLine($"| services | {s.Services} |");
        md.AppendLine($"| database | {s.Database} |");
        md.AppendLine($"| protocols | {string.Join(", ", s.Protocols.Select(Display.Of))} over {string.Join(", ", s.Transports.Select(t => t.ToString().ToUpperInvariant()))}; {s.HttpVersions} |");
        if (r.Users.Count > 0)
        {
            md.AppendLine($"| virtual users | {string.Join(", ", s.Users)} users × {s.RequestsPerUser} requests each, back to back, no think time; scenarios {string.Join(", ", s.UserScenarios)} |");
            md.AppendLine($"| warm-up | before each cell, every user sends at least {s.WarmupPerUser} request(s) and the users at least {s.WarmupTotal} in all (opening their connections, letting the service compile its code at full tier); excluded from every figure |");
            md.AppendLine($"| connections | HTTP/1.1: one per user; HTTP/2: one per {s.UsersPerHttp2Connection} users (a client, hence a connection, each) |");
            md.AppendLine("| throughput | successful requests ÷ wall time from the moment all users start to the moment the last one ends |");
            md.AppendLine("| latency | successful requests only; HdrHistogram (µs, 3 significant digits), one per user, merged with `Add` |");
        }

        if (r.Paced.Count > 0)
        {
            md.AppendLine($"| paced | {s.Rate:0.##} requests/s on a fixed schedule × {s.Count} per cell after {s.PacedWarmup} back-to-back warm-up requests (excluded); scenarios {string.Join(", ", s.PacedScenarios)}; each timed by Stopwatch |");
        }

        md.AppendLine($"| timeout | {s.TimeoutSeconds:0.#} s on every request (HttpClient timeout, gRPC deadline, and a cancellation backstop 1 s later) |");
        md.AppendLine("| bytes | counted at the client's sockets: plaintext on HTTP, TLS records on HTTPS; MB = 10⁶ bytes, KB = 10³ |");
        md.AppendLine("| responses | every response is checked after its clock stops (row counts, lengths, values); a wrong one counts as failed |");
        md.AppendLine();
    }

    private static void Checks(StringBuilder md, RunReport r)
    {
        md.AppendLine("## Checks").AppendLine();
        var cells = r.Users.Where(c => c.Measured).Count() + r.Paced.Count(c => c.Measured);
        md.AppendLine(r.TallyBalanced
            ? $"- **The tally balances** in all {cells} cells: issued = ok + failed + timed out + cancelled (warm-up included)."
            : "- **The tally does NOT balance** in: " + string.Join(", ",
                r.Users.Where(c => !c.Requests.Balanced || !c.Warmup.Balanced).Select(c => c.Id)
                    .Concat(r.Paced.Where(c => !c.Requests.Balanced).Select(c => $"paced {c.Scenario} {c.Protocol} {c.Transport}"))) + ".");
        var issued = r.Users.Sum(c => c.Requests.Issued) + r.Paced.Sum(c => c.Requests.Issued);
        var ok = r.Users.Sum(c => c.Requests.Ok) + r.Paced.Sum(c => c.Requests.Ok);
        md.AppendLine($"- Requests measured: {issued:N0} issued, {ok:N0} ok, {r.Errors:N0} failed or timed out, {issued - ok - r.Errors:N0} cancelled.");
        var checks = r.Users.Where(c => c.NothingLost is not null).Select(c => (Cell: c.Id, Result: c.NothingLost!))
            .Concat(r.Paced.Where(c => c.NothingLost is not null).Select(c => (Cell: $"paced-{c.Scenario}-{c.Protocol}-{c.Transport}".ToLowerInvariant(), Result: c.NothingLost!)))
            .ToList();
        if (checks.Count > 0)
        {
            md.AppendLine($"- **Nothing lost** after every create cell, read directly from {checks[0].Result.Database} (warm-up requests included; " +
                          "unknown = timed out or cancelled, may or may not be stored):").AppendLine();
            md.AppendLine("| cell | sent | acknowledged | refused | unknown | stored | lost | duplicated | wrong id | verdict |");
            md.AppendLine("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|");
            foreach (var (cell, x) in checks)
            {
                md.AppendLine($"| {cell} | {x.Sent} | {x.Acknowledged} | {x.Refused} | {x.Unknown} | {x.Stored} | {x.Lost} | {x.Duplicated} | {x.WrongId} | " +
                              $"{(x.Failed ? "**FAILED**" : x.Passed ? "ok" : "not checked")} |");
            }

            md.AppendLine();
            var examples = checks.SelectMany(c => c.Result.Examples).Take(10).ToList();
            foreach (var example in examples)
            {
                md.AppendLine($"  - {example}");
            }

            if (examples.Count > 0)
            {
                md.AppendLine();
            }
        }

        if (r.Cleanup is not null)
        {
            md.AppendLine($"- {r.Cleanup}");
        }

        md.AppendLine();
    }

    private static void Users(StringBuilder md, RunReport r)
    {
        md.AppendLine("## Virtual users").AppendLine();
        md.Append(ThroughputTable(r.Users)).AppendLine();
        md.AppendLine("Bold: the best of its transport.").AppendLine();
        foreach (var scenario in r.Users.Select(c => c.Scenario).Distinct())
        {
            md.AppendLine($"### {scenario.Label}").AppendLine();
            md.AppendLine("| users | protocol | transport | conns | req/s | mean ms | p50 | p95 | p99 | max | MB in | MB out | KB/req in | KB/req out | errors | status |");
            md.AppendLine("|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|");
            foreach (var c in r.Users.Where(c => c.Scenario == scenario))
            {
                md.AppendLine($"| {c.Users} | {Display.Of(c.Protocol)} | {Display.Of(c.Transport)} | {c.Connections} | {F(c.RequestsPerSecond, 0)} | " +
                              $"{F(c.Latency.MeanMs)} | {F(c.Latency.P50Ms)} | {F(c.Latency.P95Ms)} | {F(c.Latency.P99Ms)} | {F(c.Latency.MaxMs)} | " +
                              $"{F(c.MegabytesReceived)} | {F(c.MegabytesSent)} | {F(c.KilobytesPerRequestReceived)} | {F(c.KilobytesPerRequestSent)} | " +
                              $"{c.Requests.ErrorText} | {c.Status} |");
            }

            md.AppendLine();
            if (r.Users.Any(c => c.Scenario == scenario && c.Measured))
            {
                md.AppendLine($"![throughput](throughput-{scenario}.svg) ![latency](latency-{scenario}.svg) ![bytes](bytes-{scenario}.svg)").AppendLine();
            }
        }
    }

    private static void Paced(StringBuilder md, RunReport r)
    {
        md.AppendLine("## Paced").AppendLine();
        md.AppendLine("| scenario | protocol | transport | rate/s | requests | median ms | mean | p95 | min | max | latest start ms | errors | status |");
        md.AppendLine("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|");
        foreach (var c in r.Paced)
        {
            md.AppendLine($"| {c.Scenario.Label} | {Display.Of(c.Protocol)} | {Display.Of(c.Transport)} | {c.Rate:0.##} | {c.Requests.Issued} | " +
                          $"**{F(c.MedianMs)}** | {F(c.MeanMs)} | {F(c.P95Ms)} | {F(c.MinMs)} | {F(c.MaxMs)} | {F(c.MaxLateMs)} | {c.Requests.ErrorText} | {c.Status} |");
        }

        md.AppendLine();
        foreach (var scenario in r.Paced.Select(c => c.Scenario).Distinct())
        {
            md.AppendLine($"![paced {scenario}](paced-{scenario}.svg)").AppendLine();
        }
    }

    private static void Findings(StringBuilder md, IReadOnlyList<Finding> findings)
    {
        md.AppendLine("## Compared with the papers ([method](../../docs/methodology.md#the-papers))").AppendLine();
        md.AppendLine("Orders and ratios are comparable, absolute numbers are not: the papers ran over a LAN with k6 or JMeter on .NET 5; " +
                      "here driver and services share one machine over loopback. A claimed factor counts as reproduced when ours reaches two thirds of it; " +
                      "two medians within 10% count as \"both\".").AppendLine();
        md.AppendLine("| paper | finding | ours | verdict |").AppendLine("|---|---|---|---|");
        foreach (var f in findings)
        {
            md.AppendLine($"| {f.Paper} | {f.Claim} | {f.Ours} | **{f.Verdict}** |");
        }

        md.AppendLine();
    }

    private static string F(double value, int decimals = 2) =>
        double.IsFinite(value) ? value.ToString(decimals == 0 ? "N0" : "N" + decimals, CultureInfo.InvariantCulture) : "–";
}
