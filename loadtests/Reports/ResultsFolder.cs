using System.Text;
using System.Text.Json;
using ProtocolBench.Lab.Reports;

namespace ProtocolBench.LoadTests.Reports;

/// <summary>
/// results/loadtests-&lt;timestamp&gt;/: cells.jsonl appended and flushed as each cell ends (a crash loses at most the
/// running cell), then summary.json, CSV, report.md and report.html, SVG charts and HdrHistogram .hgrm files at the end (also when
/// interrupted, flagged so).
/// </summary>
public sealed class ResultsFolder
{
    private static readonly JsonSerializerOptions Line = new(ResultsJson.Options) { WriteIndented = false };
    private readonly object _gate = new();

    public ResultsFolder(string? directory, DateTimeOffset started)
    {
        Path = RunFolder.Create("loadtests", directory, started);
    }

    public string Path { get; }

    public string File(string name) => System.IO.Path.Combine(Path, name);

    public void AppendCell(UserCell cell) => Append("cells.jsonl", cell);

    public void AppendPaced(PacedCell cell) => Append("cells.jsonl", cell);

    public void AppendRate(RateCell cell) => Append("cells.jsonl", cell);

    public IReadOnlyList<string> WriteAll(RunReport report, IReadOnlyDictionary<string, LongHistogram> histograms)
    {
        var written = new List<string>();
        void Write(string name, string content)
        {
            System.IO.File.WriteAllText(File(name), content, new UTF8Encoding(false));
            written.Add(name);
        }

        Write("summary.json", JsonSerializer.Serialize(report, ResultsJson.Options));
        if (report.Users.Count > 0)
        {
            Write("users.csv", UsersCsv(report.Users));
            foreach (var (name, svg) in LoadCharts.Users(report.Users))
            {
                Write(name, svg);
            }
        }

        if (report.Paced.Count > 0)
        {
            Write("paced.csv", PacedCsv(report.Paced));
            foreach (var scenario in report.Paced.Select(c => c.Scenario).Distinct())
            {
                var cells = report.Paced.Where(c => c.Scenario == scenario).ToList();
                Write($"paced-{scenario.Name}.csv", PacedSeriesCsv(cells));
                Write($"paced-{scenario.Name}.svg", LoadCharts.Paced(scenario, cells));
            }
        }

        if (report.RateCells.Count > 0)
        {
            Write("rate.csv", RateCsv(report.RateCells));
            foreach (var (name, svg) in LoadCharts.Rates(report.RateCells, report.Settings))
            {
                Write(name, svg);
            }
        }

        if (histograms.Count > 0)
        {
            Directory.CreateDirectory(File("histograms"));
            foreach (var (id, histogram) in histograms)
            {
                using var writer = new StreamWriter(File($"histograms/{id}.hgrm"));
                // Recorded in microseconds; the file is in milliseconds like other HdrHistogram tools expect.
                histogram.OutputPercentileDistribution(writer, outputValueUnitScalingRatio: 1000.0);
            }

            written.Add("histograms/*.hgrm");
        }

        var charts = written.Where(name => name.EndsWith(".svg", StringComparison.Ordinal)).ToDictionary(name => name, name => System.IO.File.ReadAllText(File(name)));
        written.AddRange(LoadReport.Build(report, written, charts).Write(Path, "report"));
        return written;
    }

    public static string UsersCsv(IEnumerable<UserCell> cells) => Csv.Of(
        [
            "scenario", "protocol", "transport", "users", "requests_per_user", "connections", "status", "elapsed_s", "requests_per_s", "latency_count",
            "mean_ms", "p50_ms", "p90_ms", "p95_ms", "p99_ms", "max_ms", "mb_received", "mb_sent", "kb_received_per_request", "kb_sent_per_request",
            "issued", "ok", "failed", "timed_out", "cancelled", "balanced", "errors", "warmup_issued", "warmup_not_ok", "nothing_lost",
            "server_cpu_us_per_request", "server_allocated_bytes_per_request", "kernel_cpu_us_per_request", "client_cpu_us_per_request",
            "service_mib_start", "service_mib_peak", "service_kib_per_connection",
        ],
        cells.Select(c => new object?[]
        {
            c.Scenario.Name, c.Protocol, c.Transport, c.Users, c.RequestsPerUser, c.Connections, c.Status, Csv.Number(c.ElapsedSeconds), Csv.Number(c.RequestsPerSecond), c.Latency.Count,
            Csv.Number(c.Latency.MeanMs), Csv.Number(c.Latency.P50Ms), Csv.Number(c.Latency.P90Ms), Csv.Number(c.Latency.P95Ms), Csv.Number(c.Latency.P99Ms), Csv.Number(c.Latency.MaxMs),
            Csv.Number(c.MegabytesReceived), Csv.Number(c.MegabytesSent), Csv.Number(c.KilobytesPerRequestReceived), Csv.Number(c.KilobytesPerRequestSent),
            c.Requests.Issued, c.Requests.Ok, c.Requests.Failed, c.Requests.TimedOut, c.Requests.Cancelled, c.Requests.Balanced ? "yes" : "NO", c.Requests.ErrorText,
            c.Warmup.Issued, c.Warmup.NotOk, c.NothingLost?.Verdict ?? "",
            Csv.Number(c.Cost?.ServerCpuMicros ?? double.NaN), Csv.Number(c.Cost?.ServerAllocatedBytes ?? double.NaN), Csv.Number(c.Cost?.KernelCpuMicros ?? double.NaN),
            Csv.Number(c.Cost?.ClientCpuMicros ?? double.NaN),
            Csv.Number(c.Memory?.StartMiB ?? double.NaN), Csv.Number(c.Memory?.PeakMiB ?? double.NaN), Csv.Number(c.Memory?.KiBPerConnection ?? double.NaN),
        }));

    private static string PacedCsv(IEnumerable<PacedCell> cells) => Csv.Of(
        [
            "scenario", "protocol", "transport", "rate_per_s", "count", "status", "median_ms", "mean_ms", "p95_ms", "min_ms", "max_ms", "max_late_ms",
            "mb_received", "mb_sent", "issued", "ok", "failed", "timed_out", "cancelled", "balanced", "errors",
        ],
        cells.Select(c => new object?[]
        {
            c.Scenario.Name, c.Protocol, c.Transport, Csv.Number(c.Rate), c.Count, c.Status, Csv.Number(c.MedianMs), Csv.Number(c.MeanMs), Csv.Number(c.P95Ms), Csv.Number(c.MinMs), Csv.Number(c.MaxMs), Csv.Number(c.MaxLateMs),
            Csv.Number(c.BytesReceived / 1e6 ?? double.NaN), Csv.Number(c.BytesSent / 1e6 ?? double.NaN), c.Requests.Issued, c.Requests.Ok, c.Requests.Failed, c.Requests.TimedOut, c.Requests.Cancelled,
            c.Requests.Balanced ? "yes" : "NO", c.Requests.ErrorText,
        }));

    private static string RateCsv(IEnumerable<RateCell> cells) => Csv.Of(
        [
            "scenario", "protocol", "transport", "offered_per_s", "seconds", "issued", "ok", "failed", "timed_out", "cancelled", "throughput_per_s",
            "p50_ms", "p90_ms", "p99_ms", "max_ms", "max_late_ms", "within_bound", "server_cpu_us_per_request", "server_cores",
            "server_allocated_bytes_per_request", "kernel_cpu_us_per_request", "client_cpu_us_per_request", "errors",
        ],
        cells.SelectMany(c => c.Steps.Select(s => new object?[]
        {
            c.Scenario.Name, c.Protocol, c.Transport, Csv.Number(s.OfferedRate), Csv.Number(s.Seconds), s.Requests.Issued, s.Requests.Ok, s.Requests.Failed, s.Requests.TimedOut,
            s.Requests.Cancelled, Csv.Number(s.Throughput), Csv.Number(s.Latency.P50Ms), Csv.Number(s.Latency.P90Ms), Csv.Number(s.Latency.P99Ms), Csv.Number(s.Latency.MaxMs), Csv.Number(s.MaxLateMs),
            s.WithinBound ? "yes" : "no", Csv.Number(s.Cost?.ServerCpuMicros ?? double.NaN), Csv.Number(s.ServerCores), Csv.Number(s.Cost?.ServerAllocatedBytes ?? double.NaN),
            Csv.Number(s.Cost?.KernelCpuMicros ?? double.NaN), Csv.Number(s.Cost?.ClientCpuMicros ?? double.NaN), s.Requests.ErrorText,
        })));

    private static string PacedSeriesCsv(IEnumerable<PacedCell> cells) => Csv.Of(
        ["protocol", "transport", "index", "scheduled_ms", "started_ms", "latency_ms", "outcome", "error"],
        cells.SelectMany(c => c.Samples.Select(s => new object?[]
        {
            c.Protocol, c.Transport, s.Index, Csv.Number(s.ScheduledMs), Csv.Number(s.StartedMs), Csv.Number(s.LatencyMs), s.Outcome, s.Error ?? "",
        })));

    private void Append<T>(string name, T item)
    {
        lock (_gate)
        {
            using var stream = new FileStream(File(name), FileMode.Append, FileAccess.Write, FileShare.Read);
            using var writer = new StreamWriter(stream, new UTF8Encoding(false));
            writer.WriteLine(JsonSerializer.Serialize(item, Line));
            writer.Flush();
            stream.Flush(flushToDisk: true);
        }
    }
}
