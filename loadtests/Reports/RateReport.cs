using ProtocolBench.Lab.Reports;

namespace ProtocolBench.LoadTests.Reports;

/// <summary>The open-loop rate sweep's part of the load report: saturation per protocol and transport, and every step.</summary>
public static class RateReport
{
    /// <summary>Per scenario, the saturation rate of each protocol and transport, and the CPU per request the service spent there.</summary>
    public static Table Saturation(IReadOnlyList<RateCell> cells, Settings settings)
    {
        var combos = cells.Select(c => (c.Protocol, c.Transport)).Distinct().Order().ToList();
        var table = new Table(["saturation (req/s; server CPU µs/req there)", .. combos.Select(k => Display.Of(k.Protocol, k.Transport))]);
        foreach (var scenario in cells.Select(c => c.Scenario).Distinct())
        {
            table.Add([scenario.Label, .. combos.Select(k => cells.FirstOrDefault(c => c.Scenario == scenario && (c.Protocol, c.Transport) == k) is { Measured: true } c
                ? (TableCell)SaturationText(c, settings)
                : "–")]);
        }

        return table;
    }

    private static string SaturationText(RateCell c, Settings settings)
    {
        if (c.Saturation is not { } rate)
        {
            return $"< {c.Steps[0].OfferedRate:0.##}";
        }

        var step = c.Steps.First(s => s.OfferedRate == rate);
        var cpu = step.Cost is { } cost ? $" ({cost.ServerCpuMicros:N0} µs)" : "";
        return (c.Saturated ? $"{rate:0.##}" : $"≥ {rate:0.##}") + cpu;
    }

    public static Table RateSteps(IEnumerable<RateCell> cells) =>
        new Table("protocol", "transport", "offered/s", "ok/s", "p50 ms", "p90", "p99", "max", "latest send ms", "server CPU µs/req", "server cores", "errors", "within bound")
            .AddRange(cells.SelectMany(c => c.Steps.Select(s => new TableCell[]
            {
                Display.Of(c.Protocol), Display.Of(c.Transport), s.OfferedRate.ToString("0.##", CultureInfo.InvariantCulture), LoadReport.F(s.Throughput, 0),
                LoadReport.F(s.Latency.P50Ms), LoadReport.F(s.Latency.P90Ms), new TableCell(LoadReport.F(s.Latency.P99Ms), Strong: true), LoadReport.F(s.Latency.MaxMs), LoadReport.F(s.MaxLateMs),
                LoadReport.F(s.Cost?.ServerCpuMicros ?? double.NaN, 0), LoadReport.F(s.ServerCores), s.Requests.ErrorText, s.WithinBound ? "yes" : "no",
            })));

    public static void Rates(Report report, RunReport r, IReadOnlyDictionary<string, string> charts)
    {
        report.Section("Open-loop rate sweep")
            .Paragraph("Each protocol and transport at increasing offered rates, requests sent on schedule whether or not the earlier ones were answered; " +
                       $"latency counts from the intended send time, so queueing shows (coordinated-omission free). Saturation: the highest rate with no error and p99 ≤ {r.Settings.P99BoundMs:0.#} ms " +
                       "(\"≥\": every rate was within the bound; \"<\": not even the first).")
            .Add(Saturation(r.RateCells, r.Settings));
        foreach (var scenario in r.RateCells.Select(c => c.Scenario).Distinct())
        {
            report.Section($"Rate sweep: {scenario.Label}").Add(RateSteps(r.RateCells.Where(c => c.Scenario == scenario)));
            if (charts.TryGetValue($"rate-{scenario.Name}.svg", out var svg))
            {
                report.Figure(svg, $"![rate {scenario.Name}](rate-{scenario.Name}.svg)");
            }
        }
    }
}
