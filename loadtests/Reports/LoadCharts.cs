using ProtocolBench.Lab.Charts;

namespace ProtocolBench.LoadTests.Reports;

/// <summary>The load run's SVG charts, drawn by the chart module both commands share; the results folder writes them.</summary>
public static class LoadCharts
{
    /// <summary>Per scenario: throughput by users, latency percentiles and bytes per request at the most users, one series per protocol and transport.</summary>
    public static IEnumerable<(string Name, string Svg)> Users(IReadOnlyList<UserCell> cells)
    {
        var measured = cells.Where(c => c.Measured).ToList();
        foreach (var scenario in measured.Select(c => c.Scenario).Distinct())
        {
            var rows = measured.Where(c => c.Scenario == scenario).ToList();
            var users = rows.Select(c => c.Users).Distinct().Order().ToList();
            var combos = rows.Select(c => (c.Protocol, c.Transport)).Distinct().Order().ToList();
            var title = scenario.Label;
            var series = combos.Select(k => new ChartSeries(
                Display.Of(k.Protocol, k.Transport), Display.Colour(k.Protocol), k.Transport == Transport.Https,
                users.Select((u, i) => ((double)i, rows.FirstOrDefault(c => (c.Protocol, c.Transport) == k && c.Users == u)?.RequestsPerSecond ?? double.NaN)).ToList()))
                .ToList();
            yield return ($"throughput-{scenario.Name}.svg",
                SvgChart.Lines($"Throughput by virtual users: {title}", "virtual users", "requests per second", series, users.Select(u => u.ToString(CultureInfo.InvariantCulture)).ToList()));

            var top = users[^1];
            var atTop = combos.Select(k => rows.FirstOrDefault(c => (c.Protocol, c.Transport) == k && c.Users == top)).ToList();
            var groups = combos.Select(k => Display.Of(k.Protocol, k.Transport)).ToList();
            yield return ($"latency-{scenario.Name}.svg", SvgChart.Bars($"Latency at {top} users: {title}", "milliseconds", groups,
            [
                new BarSeries("p50", "#9ecae1", atTop.Select(c => c?.Latency.P50Ms ?? double.NaN).ToList()),
                new BarSeries("p95", "#4292c6", atTop.Select(c => c?.Latency.P95Ms ?? double.NaN).ToList()),
                new BarSeries("p99", "#08306b", atTop.Select(c => c?.Latency.P99Ms ?? double.NaN).ToList()),
            ]));
            if (atTop.Any(c => c?.Cost is not null))
            {
                yield return ($"cost-{scenario.Name}.svg", SvgChart.Bars($"CPU time per request at {top} users: {title}", "microseconds per request", groups,
                [
                    new BarSeries("server", "#6a51a3", atTop.Select(c => c?.Cost?.ServerCpuMicros ?? double.NaN).ToList()),
                    new BarSeries("client", "#bcbddc", atTop.Select(c => c?.Cost?.ClientCpuMicros ?? double.NaN).ToList()),
                ]));
            }

            yield return ($"bytes-{scenario.Name}.svg", SvgChart.Bars($"Bytes on the wire per request at {top} users: {title}", "kilobytes per request", groups,
            [
                new BarSeries("received", "#74c476", atTop.Select(c => c?.KilobytesPerRequestReceived ?? double.NaN).ToList()),
                new BarSeries("sent", "#fd8d3c", atTop.Select(c => c?.KilobytesPerRequestSent ?? double.NaN).ToList()),
            ]));
        }
    }

    /// <summary>
    /// Per scenario of the rate sweep: p99 latency by offered rate, one line per protocol and transport, up to where each
    /// stopped, with the bound drawn. The axis is logarithmic: the step past saturation is often seconds, and on a linear
    /// axis it flattens every step under the bound to the floor.
    /// </summary>
    public static IEnumerable<(string Name, string Svg)> Rates(IReadOnlyList<RateCell> cells, Settings settings)
    {
        var labels = settings.Rates.Select(r => r.ToString("0.##", CultureInfo.InvariantCulture)).ToList();
        foreach (var scenario in cells.Where(c => c.Measured).Select(c => c.Scenario).Distinct())
        {
            var series = cells.Where(c => c.Scenario == scenario && c.Measured).Select(c => new ChartSeries(
                Display.Of(c.Protocol, c.Transport), Display.Colour(c.Protocol), c.Transport == Transport.Https,
                c.Steps.Select(s => ((double)IndexOf(settings.Rates, s.OfferedRate), s.Latency.P99Ms)).ToList())).ToList();
            yield return ($"rate-{scenario.Name}.svg", SvgChart.Lines(
                $"p99 latency by offered rate (open loop, from the intended send): {scenario.Label}", "offered requests per second", "p99 (ms, log scale)", series, labels,
                logarithmic: true, threshold: new Threshold(settings.P99BoundMs, $"bound {settings.P99BoundMs:0.##} ms")));
        }
    }

    private static int IndexOf(IReadOnlyList<double> rates, double rate) => rates.Select((r, i) => (r, i)).First(x => x.r == rate).i;

    /// <summary>A paced scenario's timeline: each request's latency in order, one line per protocol and transport.</summary>
    public static string Paced(Scenario scenario, IReadOnlyList<PacedCell> cells)
    {
        var first = cells[0];
        var series = cells.Where(c => c.Measured).Select(c => new ChartSeries(
            $"{Display.Of(c.Protocol, c.Transport)}: median {c.MedianMs:F2} ms", Display.Colour(c.Protocol), c.Transport == Transport.Https,
            c.Samples.Where(s => s.Outcome == OutcomeKind.Ok).Select(s => ((double)s.Index + 1, s.LatencyMs)).ToList())).ToList();
        return SvgChart.Lines($"Paced {first.Rate:0.##}/s: {scenario.Label}", "request number", "response time (ms)", series);
    }
}
