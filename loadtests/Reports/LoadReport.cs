using ProtocolBench.Lab.Conditions;
using ProtocolBench.Lab.Reports;

namespace ProtocolBench.LoadTests.Reports;

/// <summary>
/// report.md and report.html of a load run, through the one report writer both commands share: setup, checks, the
/// throughput table and a table and three charts per scenario, the paced series, the papers beside ours, the driver check.
/// </summary>
public static class LoadReport
{
    public static Report Build(RunReport r, IReadOnlyList<string> files, IReadOnlyDictionary<string, string> charts)
    {
        var report = new Report("ProtocolBench load study");
        report.Paragraph($"Run `{r.Run.Id}`, {r.Run.Started:yyyy-MM-dd HH:mm:ss} → {r.Run.Finished:HH:mm:ss} UTC ({r.Run.Duration.TotalMinutes:F1} min), mode `{r.Mode}`" +
                         (r.Settings.Quick ? " (`--quick`: a small bounded run, not a study)" : "") + ".");
        if (PaperFindings.PacedLine(r.Findings) is { } verdicts)
        {
            report.Lead(verdicts);
        }

        if (r.Run.Interrupted is { } why)
        {
            report.Warning($"**Interrupted ({why}): partial results.** Cells that did not finish are marked.");
        }

        foreach (var problem in r.Problems)
        {
            report.Warning($"**Problem:** {problem}");
        }

        report.Section("Setup").Add(Setup(r));
        Checks(report, r);
        if (r.Users.Any(c => c.Measured))
        {
            Users(report, r, charts);
        }

        if (r.Paced.Count > 0)
        {
            Paced(report, r, charts);
        }

        if (r.RateCells.Count > 0)
        {
            RateReport.Rates(report, r, charts);
        }

        if (r.Findings.Count > 0)
        {
            report.Section("Compared with the papers ([method](../../docs/methodology.md#the-papers))")
                .Paragraph("Orders and ratios are comparable, absolute numbers are not: the papers ran over a LAN with k6 or JMeter on .NET 5; " +
                           "here driver and services share one machine over loopback. A claimed factor counts as reproduced when ours reaches two thirds of it; " +
                           "two medians within 10% count as \"both\".")
                .Add(Findings(r.Findings));
        }

        if (r.DriverCheck is { } check)
        {
            report.Section("Driver check")
                .Paragraph($"Same endpoint, same concurrency, same pinning ({check.Pinning}); scenario {check.Scenario.Label}. " +
                           "Our driver deserializes and checks every response; wrk and h2load only read the bytes.")
                .Add(DriverCheck(check))
                .Bullets(check.Rows.Where(row => row.Skipped is null).Select(row =>
                    $"{row.Tool}: `{row.ToolCommand}`; rounds (ours / theirs req/s): " +
                    string.Join(", ", row.Rounds.Select(x => $"{x.OursPerSecond:F0} / {x.TheirsPerSecond:F0}")) + $"; {row.Rounds[^1].TheirSummary}"));
            if (check.Latency is { Count: > 0 } latency)
            {
                report.Paragraph("Latency at a fixed rate, well below saturation: our open-loop rate sweep's step against hey -q (REST; one worker) " +
                                 "and h2load --rps (gRPC over h2c; one connection), alternately; medians over the rounds, in milliseconds. " +
                                 "h2load reports no percentiles, only its mean.")
                    .Add(LatencyCheck(latency))
                    .Bullets(latency.Where(row => row.Skipped is null && row.Rounds.Count > 0).Select(row => $"{row.Tool}: `{row.ToolCommand}`; {row.Rounds[^1].TheirSummary}"));
            }
        }

        return report.Section("Files").Paragraph(string.Join(", ", files.Append("cells.jsonl").Select(f => $"`{f}`")));
    }

    /// <summary>Requests per second at the largest number of users: one row per scenario, one column per protocol and transport; bold the best of its transport.</summary>
    public static Table Throughput(IReadOnlyList<UserCell> cells)
    {
        var measured = cells.Where(c => c.Measured).ToList();
        var top = measured.Max(c => c.Users);
        var combos = measured.Select(c => (c.Protocol, c.Transport)).Distinct().Order().ToList();
        var table = new Table([$"requests/s at {top} users", .. combos.Select(k => Display.Of(k.Protocol, k.Transport))]);
        foreach (var scenario in measured.Select(c => c.Scenario).Distinct())
        {
            var row = combos.Select(k => measured.FirstOrDefault(c => c.Scenario == scenario && c.Users == top && (c.Protocol, c.Transport) == k));
            table.Add([scenario.Label, .. row.Select(c => c is null ? "–" : new TableCell(
                c.RequestsPerSecond.ToString("N0", CultureInfo.InvariantCulture),
                c.RequestsPerSecond == measured.Where(o => o.Scenario == c.Scenario && o.Users == top && o.Transport == c.Transport).Max(o => o.RequestsPerSecond)))]);
        }

        return table;
    }

    /// <summary>Every virtual-user cell, for the console.</summary>
    public static Table UserCells(IEnumerable<UserCell> cells) =>
        new Table("scenario", "users", "protocol", "transport", "req/s", "mean ms", "p50", "p95", "p99", "max", "MB in", "MB out", "errors") { TextColumns = 1 }
            .AddRange(cells.Select(c => new TableCell[]
            {
                c.Scenario.Name, c.Users.ToString(CultureInfo.InvariantCulture), Display.Of(c.Protocol), Display.Of(c.Transport),
                F(c.RequestsPerSecond, 0), F(c.Latency.MeanMs), F(c.Latency.P50Ms), F(c.Latency.P95Ms), F(c.Latency.P99Ms), F(c.Latency.MaxMs),
                F(c.MegabytesReceived), F(c.MegabytesSent), c.Status == UserCell.Complete ? c.Requests.ErrorText : $"{c.Requests.ErrorText} ({c.Status})",
            }));

    public static Table PacedCells(IEnumerable<PacedCell> cells) =>
        new Table("scenario", "protocol", "transport", "rate/s", "requests", "median ms", "mean", "p95", "min", "max", "latest start ms", "errors", "status")
            .AddRange(cells.Select(c => new TableCell[]
            {
                c.Scenario.Label, Display.Of(c.Protocol), Display.Of(c.Transport), c.Rate.ToString("0.##", CultureInfo.InvariantCulture),
                c.Requests.Issued.ToString(CultureInfo.InvariantCulture), new TableCell(F(c.MedianMs), Strong: true), F(c.MeanMs), F(c.P95Ms), F(c.MinMs),
                F(c.MaxMs), F(c.MaxLateMs), c.Requests.ErrorText, c.Status,
            }));

    public static Table Findings(IEnumerable<Finding> findings) =>
        new Table("paper", "finding", "ours", "verdict") { TextColumns = 4 }.AddRange(findings.Select(f => new TableCell[] { f.Paper, f.Claim, f.Ours, new(f.Verdict, Strong: true) }));

    public static Table DriverCheck(DriverCheckResult check) =>
        new Table("endpoint", "users", "connections", "tool", "tool req/s", "our req/s", "ours ÷ tool")
            .AddRange(check.Rows.Select(row => new TableCell[]
            {
                row.Endpoint, row.Users.ToString(CultureInfo.InvariantCulture), row.Connections.ToString(CultureInfo.InvariantCulture), row.Tool,
                row.Skipped is null ? F(row.Theirs, 0) : "–", row.Skipped is null ? F(row.Ours, 0) : "–",
                row.Skipped is null ? new TableCell(row.Ratio.ToString("F2", CultureInfo.InvariantCulture), Strong: true) : row.Skipped,
            }));

    public static Table LatencyCheck(IEnumerable<LatencyComparison> rows) =>
        new Table("endpoint", "tool", "rate/s", "ours p50", "tool p50", "p50 ours ÷ tool", "ours p99", "tool p99", "ours mean", "tool mean", "mean ours ÷ tool")
            .AddRange(rows.Select(row => row.Skipped is not null
                ? new TableCell[] { row.Endpoint, row.Tool, F(row.Rate, 0), row.Skipped, "", "", "", "", "", "", "" }
                : new TableCell[]
                {
                    row.Endpoint, row.Tool, F(row.Rate, 0), F(row.OursP50), F(row.TheirsP50), new TableCell(F(row.OursP50 / row.TheirsP50), Strong: true),
                    F(row.OursP99), F(row.TheirsP99), F(row.OursMean), F(row.TheirsMean), new TableCell(F(row.OursMean / row.TheirsMean), Strong: true),
                }));

    private static Table Setup(RunReport r)
    {
        var s = r.Settings;
        var rows = new List<(string, string)>
        {
            ("Protocols", $"{string.Join(", ", s.Protocols.Select(Display.Of))} over {string.Join(", ", s.Transports.Select(t => t.ToString().ToUpperInvariant()))}"),
        };
        if (r.Users.Count > 0)
        {
            rows.AddRange(UserSetup.Rows(r));
        }

        if (r.RateCells.Count > 0)
        {
            rows.Add(("Rate sweep", $"open loop: {string.Join(", ", s.Rates.Select(x => x.ToString("0.##", CultureInfo.InvariantCulture)))} requests/s in turn, " +
                                    $"{s.StepSeconds:0.#} s each or long enough for {RateSweep.MinRequestsPerStep} requests, after a warm-up (left out): {RateSweep.WarmupUsers} users " +
                                    $"send the scenario back to back, {RateSweep.WarmupRequests(s.Quick)} requests and then {RateSweep.Warmup(s.Quick).TotalSeconds:0.#} s more; requests go out on a fixed schedule whatever the answers; latency from each request's intended send " +
                                    $"time (HdrHistogram); a cell stops at the first rate with an error or a p99 above {s.P99BoundMs:0.#} ms; " +
                                    $"{RateSweep.Clients} clients per cell, at most {RateSweep.MaxInFlight} requests in flight; scenarios {string.Join(", ", s.RateScenarios)}; " +
                                    "server cost per request read per step as for the virtual users. " + CpuAccounts.Check(r.RateCells.SelectMany(c => c.Steps).Select(x => x.Cost))));
        }

        if (r.Paced.Count > 0)
        {
            rows.Add(("Paced", $"{s.Rate:0.##} requests/s on a fixed schedule × {s.Count} per cell after {s.PacedWarmup} back-to-back warm-up requests" +
                               (r.Run.Conditions.Client == ClientStack.Dotnet && !s.Quick ? ", twice, the service quiet after each" : "") + " (excluded); " +
                               $"scenarios {string.Join(", ", s.PacedScenarios)}; " + PacedTiming(r.Run.Conditions.Client)));
            rows.Add(("Paced server cost", "not read: the service idles between paced requests, and an account over the cell would charge the idle " +
                                           "time to them; the benchmark command measures each operation's cost"));
        }

        rows.AddRange([
            ("Timeout", $"{s.TimeoutSeconds:0.#} s on every request (HttpClient timeout, gRPC deadline, and a cancellation backstop 1 s later)"),
            ("Bytes", "counted at the client's sockets: plaintext on HTTP, TLS records on HTTPS; MB = 10⁶ bytes, KB = 10³" +
                      (r.Run.Conditions.Client == ClientStack.Dotnet ? "" : "; not read through another client stack") +
                      (s.UserDriver is null ? "" : "; not read for Locust's users")),
            ("Responses", "every response is checked before it counts (row counts, lengths, values); a wrong one counts as failed"),
        ]);
        return r.Run.Setup([.. rows]);
    }

    /// <summary>How the paced requests were sent and timed: by this process, or by another client stack's (--client).</summary>
    private static string PacedTiming(ClientStack client) => client switch
    {
        ClientStack.Dotnet => "each timed by Stopwatch",
        _ => $"sent and timed by the {client.Name()} stack in a process of its own (--client), one request at a time, so a request that outlasts the " +
             "interval delays the next (latest start shows it)" + (client == ClientStack.Jmeter ? "; JMeter's elapsed times and starts, in whole milliseconds" : "") +
             "; every answer read and checked by this project's client code; creates are not made (one recorded request is sent again and again)",
    };

    private static void Checks(Report report, RunReport r)
    {
        report.Section("Checks");
        var cells = r.Users.Count(c => c.Measured) + r.Paced.Count(c => c.Measured) + r.RateCells.Count(c => c.Measured);
        var issued = r.Users.Sum(c => c.Requests.Issued) + r.Paced.Sum(c => c.Requests.Issued);
        var ok = r.Users.Sum(c => c.Requests.Ok) + r.Paced.Sum(c => c.Requests.Ok);
        var steps = r.RateCells.SelectMany(c => c.Steps).Select(s => s.Requests).ToList();
        var checks = r.Users.Where(c => c.NothingLost is not null).Select(c => (Cell: c.Id, Result: c.NothingLost!))
            .Concat(r.Paced.Where(c => c.NothingLost is not null).Select(c => (Cell: $"paced-{c.Scenario.Name}-{c.Protocol}-{c.Transport}".ToLowerInvariant(), Result: c.NothingLost!)))
            .Concat(r.RateCells.Where(c => c.NothingLost is not null).Select(c => (Cell: $"rate-{c.Scenario.Name}-{c.Protocol}-{c.Transport}".ToLowerInvariant(), Result: c.NothingLost!)))
            .ToList();
        report.Bullets([
            r.TallyBalanced
                ? $"**The tally balances** in all {cells} cells: issued = ok + failed + timed out + cancelled (warm-up included)."
                : "**The tally does NOT balance** in: " + string.Join(", ",
                    r.Users.Where(c => !c.Requests.Balanced || !c.Warmup.Balanced).Select(c => c.Id)
                        .Concat(r.Paced.Where(c => !c.Requests.Balanced).Select(c => $"paced {c.Scenario.Name} {c.Protocol} {c.Transport}"))) + ".",
            .. issued > 0 || steps.Count == 0
                ? [$"Requests measured: {issued:N0} issued, {ok:N0} ok, {r.Errors:N0} failed or timed out, {issued - ok - r.Errors:N0} cancelled."]
                : Array.Empty<string>(),
            .. steps.Count > 0
                ? [$"Rate sweep: {steps.Sum(t => t.Issued):N0} requests issued in {steps.Count} steps, {steps.Sum(t => t.Ok):N0} ok, " +
                   $"{steps.Sum(t => t.Failed + t.TimedOut):N0} failed or timed out, {steps.Sum(t => t.Cancelled):N0} cancelled " +
                   "(errors end their cell: they belong to the steps beyond the bound)."]
                : Array.Empty<string>(),
            .. checks.Count > 0
                ? [$"**Nothing lost** after every create cell, read directly from {checks[0].Result.Database} (warm-up requests included; " +
                   "unknown = timed out or cancelled, may or may not be stored):"]
                : Array.Empty<string>(),
        ]);
        if (checks.Count > 0)
        {
            report.Add(new Table("cell", "sent", "acknowledged", "refused", "unknown", "stored", "lost", "duplicated", "wrong id", "verdict")
                .AddRange(checks.Select(x => new TableCell[]
                {
                    x.Cell, $"{x.Result.Sent}", $"{x.Result.Acknowledged}", $"{x.Result.Refused}", $"{x.Result.Unknown}", $"{x.Result.Stored}",
                    $"{x.Result.Lost}", $"{x.Result.Duplicated}", $"{x.Result.WrongId}",
                    new(x.Result.Failed ? "FAILED" : x.Result.Passed ? "ok" : "not checked", x.Result.Failed),
                })));
            report.Bullets(checks.SelectMany(c => c.Result.Examples).Take(10));
        }

        if (r.Cleanup is not null)
        {
            report.Paragraph(r.Cleanup);
        }
    }

    private static void Users(Report report, RunReport r, IReadOnlyDictionary<string, string> charts)
    {
        report.Section("Virtual users").Add(Throughput(r.Users)).Note("Bold: the best of its transport.");
        foreach (var scenario in r.Users.Select(c => c.Scenario).Distinct())
        {
            report.Section(scenario.Label).Add(
                new Table(
                        "users", "protocol", "transport", "conns", "req/s", "mean ms", "p50", "p95", "p99", "max", "MB in", "MB out", "KB/req in", "KB/req out",
                        "server CPU µs/req", "server KB/req", "client CPU µs/req", "service MiB", "KiB/conn", "errors", "status")
                    .AddRange(r.Users.Where(c => c.Scenario == scenario).Select(c => new TableCell[]
                    {
                        $"{c.Users}", Display.Of(c.Protocol), Display.Of(c.Transport), $"{c.Connections}", F(c.RequestsPerSecond, 0),
                        F(c.Latency.MeanMs), F(c.Latency.P50Ms), F(c.Latency.P95Ms), F(c.Latency.P99Ms), F(c.Latency.MaxMs),
                        F(c.MegabytesReceived), F(c.MegabytesSent), F(c.KilobytesPerRequestReceived), F(c.KilobytesPerRequestSent),
                        F(c.Cost?.ServerCpuMicros ?? double.NaN, 0), F((c.Cost?.ServerAllocatedBytes ?? double.NaN) / 1e3, 1), F(c.Cost?.ClientCpuMicros ?? double.NaN, 0),
                        F(c.Memory?.PeakMiB ?? double.NaN, 0), F(c.Memory?.KiBPerConnection ?? double.NaN, 1), c.Requests.ErrorText, c.Status,
                    })))
                .Note("Service MiB: the most its process held (resident) while the cell's users were connected; KiB/conn: its growth over the cell's start ÷ the connections the cell opened, " +
                      "garbage not yet collected included (an upper bound).")
                .Note(UserSteps.FirstBeyond(r.Users.Where(c => c.Scenario == scenario).ToList(), r.Settings.P99BoundMs));
            foreach (var kind in new[] { "throughput", "latency", "bytes", "cost" })
            {
                if (charts.TryGetValue($"{kind}-{scenario.Name}.svg", out var svg))
                {
                    report.Figure(svg, $"![{kind}]({kind}-{scenario.Name}.svg)");
                }
            }
        }
    }

    private static void Paced(Report report, RunReport r, IReadOnlyDictionary<string, string> charts)
    {
        report.Section("Paced").Add(PacedCells(r.Paced));
        foreach (var scenario in r.Paced.Select(c => c.Scenario).Distinct())
        {
            if (charts.TryGetValue($"paced-{scenario.Name}.svg", out var svg))
            {
                report.Figure(svg, $"![paced {scenario.Name}](paced-{scenario.Name}.svg)");
            }
        }
    }

    /// <summary>A number to <paramref name="decimals"/> places, a dash when it was not measured.</summary>
    internal static string F(double value, int decimals = 2) =>
        double.IsFinite(value) ? value.ToString(decimals == 0 ? "N0" : "N" + decimals, CultureInfo.InvariantCulture) : "–";
}
