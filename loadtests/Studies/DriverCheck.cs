using System.Net;
using ProtocolBench.Lab.Stacks;

namespace ProtocolBench.LoadTests.Studies;

/// <summary>
/// Is the driver the bottleneck? Runs it and an independent tool against the same endpoint at the same concurrency,
/// alternately, on the driver's CPU: wrk for REST over HTTP/1.1, h2load for gRPC over h2c with a prepared
/// length-prefixed protobuf body. Reports both throughputs and ours ÷ theirs (aim: at least 0.9).
/// </summary>
/// <para>
/// Then latency at one fixed rate (<see cref="LoadTestOptions.CheckRate"/>), well below saturation: our open-loop sweep's
/// step (<see cref="RateSweep.MeasureAsync"/>) against hey -q (REST, one worker at the whole rate) and h2load --rps
/// (gRPC), alternately; p50, p99 and mean side by side.
/// </para>
public sealed class DriverCheck(
    LoadTestOptions options, ClientPool pool, ServiceSession services, ResultsFolder results, string? driverCpus, RateSweep sweep)
{
    /// <summary>
    /// Workers (hey) and connections (h2load) that send the fixed rate: one. Several workers each limited to a share of the
    /// rate tick in step, so five at a fifth each send bursts of five (measured: p50 4.8 ms against 1.9 ms for one worker
    /// at 50/s); one sends evenly, as our schedule does, and at a rate far below saturation it is never behind.
    /// </summary>
    private const int RateClients = 1;

    private int RoundCount => options.CheckRounds;

    public int PlannedSteps => 4 * RoundCount;

    public async Task<DriverCheckResult> RunAsync(LiveProgress progress, CancellationToken stop)
    {
        var scenario = options.CheckScenario;
        var rows = new List<DriverComparison>
        {
            await RestAsync(scenario, progress, stop),
            await GrpcAsync(scenario, progress, stop),
        };
        var latency = new List<LatencyComparison>
        {
            await RestLatencyAsync(scenario, progress, stop),
            await GrpcLatencyAsync(scenario, progress, stop),
        };
        return new DriverCheckResult(scenario, $"driver and tool on {driverCpus ?? "any CPU"}", rows, latency);
    }

    private async Task<LatencyComparison> RestLatencyAsync(Scenario scenario, LiveProgress progress, CancellationToken stop)
    {
        var url = await RestUrlAsync(scenario);
        var perWorker = (options.CheckRate / RateClients).ToString("0.###", CultureInfo.InvariantCulture);
        var seconds = options.Duration.TotalSeconds.ToString("0", CultureInfo.InvariantCulture);
        string[] command = ["hey", "-z", $"{seconds}s", "-c", $"{RateClients}", "-q", perWorker, "-t", "10", url];
        return Which("hey") is null
            ? SkippedLatency("REST HTTP/1.1", "hey", "hey is not installed: sudo apt-get install hey")
            : await CompareLatencyAsync("REST HTTP/1.1 " + url, "hey", Protocol.Rest, command, ToolOutput.ParseHey, scenario, progress, stop);
    }

    private async Task<LatencyComparison> GrpcLatencyAsync(Scenario scenario, LiveProgress progress, CancellationToken stop)
    {
        var (url, message) = await GrpcCallAsync(scenario);
        if (Which("h2load") is null)
        {
            return SkippedLatency("gRPC h2c", "h2load", "h2load is not installed: sudo apt-get install nghttp2-client");
        }

        var (body, problem) = await PrepareGrpcBodyAsync(scenario, url, message, stop);
        if (problem is not null)
        {
            return SkippedLatency("gRPC h2c", "h2load", $"the prepared request does not work: {problem}");
        }

        var perClient = (options.CheckRate / RateClients).ToString("0.###", CultureInfo.InvariantCulture);
        var seconds = options.Duration.TotalSeconds.ToString("0", CultureInfo.InvariantCulture);
        string[] command =
        [
            "h2load", "-t1", $"-c{RateClients}", "-m1", $"--rps={perClient}", $"-D{seconds}", "-d", body,
            "-H", "content-type: application/grpc", "-H", "te: trailers", url,
        ];
        return await CompareLatencyAsync("gRPC h2c " + url, "h2load", Protocol.Grpc, command, ToolOutput.ParseH2LoadLatency, scenario, progress, stop);
    }

    private async Task<LatencyComparison> CompareLatencyAsync(
        string endpoint, string tool, Protocol protocol, string[] command,
        Func<string, (double P50, double P99, double Mean, string Summary)> parse, Scenario scenario, LiveProgress progress, CancellationToken stop)
    {
        var rounds = new List<LatencyRound>();
        for (var round = 1; round <= RoundCount && !stop.IsCancellationRequested; round++)
        {
            RateStep? ours = null;
            var output = "";
            foreach (var oursNow in round % 2 == 1 ? new[] { true, false } : [false, true])
            {
                if (oursNow)
                {
                    GC.Collect();
                    ours = await sweep.MeasureAsync(scenario, protocol, Transport.Http, options.CheckRate, options.Duration, progress, stop);
                }
                else
                {
                    Begin(progress, $"driver-check {tool} round {round}: {tool} at {options.CheckRate:0.##}/s", options.Duration);
                    output = await RunToolAsync(command, stop);
                }
            }

            var (p50, p99, mean, summary) = parse(output);
            rounds.Add(new LatencyRound(ours!.Latency.P50Ms, ours.Latency.P99Ms, ours.Latency.MeanMs, p50, p99, mean, ours.Requests, summary));
            progress.End(2, $"  {Spectre.Console.Markup.Escape(tool)} at {options.CheckRate:0.##}/s, round {round}: ours p50 {ours.Latency.P50Ms:F2} ms, " +
                            $"p99 {ours.Latency.P99Ms:F2}, mean {ours.Latency.MeanMs:F2}; {Spectre.Console.Markup.Escape(summary)}");
        }

        return new LatencyComparison(endpoint, tool, ShellCommand.Line(Pinning.Prefix(driverCpus).Concat(command)), options.CheckRate,
            options.Duration.TotalSeconds, rounds, null);
    }

    private LatencyComparison SkippedLatency(string endpoint, string tool, string reason) =>
        new(endpoint, tool, "", options.CheckRate, options.Duration.TotalSeconds, [], reason);

    private async Task<DriverComparison> RestAsync(Scenario scenario, LiveProgress progress, CancellationToken stop)
    {
        var url = await RestUrlAsync(scenario);
        var users = options.CheckUsers;
        var seconds = options.Duration.TotalSeconds.ToString("0", CultureInfo.InvariantCulture);
        string[] command = ["wrk", "-t1", $"-c{users}", $"-d{seconds}s", "--latency", url];
        if (Which("wrk") is null)
        {
            return Skipped("REST HTTP/1.1", "wrk", users, users, "wrk is not installed: sudo apt-get install wrk");
        }

        return await CompareAsync("REST HTTP/1.1 " + url, "wrk", Protocol.Rest, users, users, command, ToolOutput.ParseWrk, scenario, progress, stop);
    }

    private async Task<DriverComparison> GrpcAsync(Scenario scenario, LiveProgress progress, CancellationToken stop)
    {
        var (url, message) = await GrpcCallAsync(scenario);
        var users = options.CheckUsers;
        var connections = pool.Connections(Protocol.Grpc, Transport.Http, users);
        var streams = (users + connections - 1) / connections;
        if (Which("h2load") is null)
        {
            return Skipped("gRPC h2c", "h2load", users, connections, "h2load is not installed: sudo apt-get install nghttp2-client");
        }

        var (body, problem) = await PrepareGrpcBodyAsync(scenario, url, message, stop);
        if (problem is not null)
        {
            return Skipped("gRPC h2c", "h2load", users, connections, $"the prepared request does not work: {problem}");
        }

        var seconds = options.Duration.TotalSeconds.ToString("0", CultureInfo.InvariantCulture);
        string[] command =
        [
            "h2load", "-t1", $"-c{connections}", $"-m{streams}", $"-D{seconds}", "-d", body,
            "-H", "content-type: application/grpc", "-H", "te: trailers", url,
        ];
        return await CompareAsync("gRPC h2c " + url, "h2load", Protocol.Grpc, users, connections, command, ToolOutput.ParseH2Load, scenario, progress, stop);
    }

    private async Task<DriverComparison> CompareAsync(
        string endpoint, string tool, Protocol protocol, int users, int connections, string[] command,
        Func<string, (double PerSecond, string Summary)> parse, Scenario scenario, LiveProgress progress, CancellationToken stop)
    {
        var clients = pool.For(scenario, protocol, Transport.Http, users);
        var rounds = new List<DriverRound>();
        var warmup = new UserLoad(new ScenarioSender(scenario, options.Timeout), clients, users, int.MaxValue, TimeSpan.FromSeconds(2));
        Begin(progress, $"driver-check {tool}: warm-up, our driver", TimeSpan.FromSeconds(2));
        await warmup.RunAsync(stop);
        await CellWarmup.QuietAsync(options, services, protocol, progress, $"driver-check {tool}", stop);
        for (var round = 1; round <= RoundCount && !stop.IsCancellationRequested; round++)
        {
            // Alternate who goes first, so a drift during the check does not always favour the same side.
            var ours = new UserLoad(new ScenarioSender(scenario, options.Timeout), clients, users, int.MaxValue, options.Duration);
            string output = "";
            foreach (var oursNow in round % 2 == 1 ? new[] { true, false } : [false, true])
            {
                if (oursNow)
                {
                    Begin(progress, $"driver-check {tool} round {round}: our driver, {users} users", options.Duration);
                    GC.Collect();
                    await ours.RunAsync(stop);
                }
                else
                {
                    Begin(progress, $"driver-check {tool} round {round}: {tool}", options.Duration);
                    output = await RunToolAsync(command, stop);
                }
            }

            var oursPerSecond = ours.Tally.Ok / ours.Elapsed.TotalSeconds;
            var (theirs, summary) = parse(output);
            rounds.Add(new DriverRound(oursPerSecond, theirs, ours.Tally.Summary(), summary));
            progress.End(1, $"  {Spectre.Console.Markup.Escape(tool)} round {round}: ours {oursPerSecond:F0} req/s, {tool} {theirs:F0} req/s, " +
                            $"ratio {oursPerSecond / theirs:F2}; ours: errors {Spectre.Console.Markup.Escape(ours.Tally.Summary().ErrorText)}; {Spectre.Console.Markup.Escape(summary)}");
        }

        return new DriverComparison(endpoint, tool, ShellCommand.Line(Pinning.Prefix(driverCpus).Concat(command)), users, connections,
            options.Duration.TotalSeconds, rounds, null);
    }

    private static void Begin(LiveProgress progress, string label, TimeSpan duration)
    {
        var clock = Stopwatch.StartNew();
        progress.Begin(label, (long)duration.TotalMilliseconds, () => (long)clock.Elapsed.TotalMilliseconds);
    }

    private async Task<string> RunToolAsync(string[] command, CancellationToken stop)
    {
        var prefix = Pinning.Prefix(driverCpus).ToList();
        var all = prefix.Concat(command).ToList();
        var info = new ProcessStartInfo(all[0]) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (var argument in all.Skip(1))
        {
            info.ArgumentList.Add(argument);
        }

        using var process = Process.Start(info) ?? throw new InvalidOperationException($"could not start {command[0]}");
        var stdout = process.StandardOutput.ReadToEndAsync(CancellationToken.None);
        var stderr = process.StandardError.ReadToEndAsync(CancellationToken.None);
        using var limit = CancellationTokenSource.CreateLinkedTokenSource(stop);
        limit.CancelAfter(options.Duration + TimeSpan.FromSeconds(30));
        try
        {
            await process.WaitForExitAsync(limit.Token);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            await process.WaitForExitAsync(CancellationToken.None);
            throw;
        }

        return await stdout + "\n" + await stderr;
    }

    /// <summary>The scenario's REST address with its query, from the call this project's client sends (the operation's description).</summary>
    private async Task<string> RestUrlAsync(Scenario scenario)
    {
        var call = await RecordedAsync(scenario, Protocol.Rest);
        return $"http://{services.Addresses.Host}:{services.Addresses.RestHttp}/{call.Path}";
    }

    /// <summary>The scenario's gRPC method address and request message, from the call this project's client sends.</summary>
    private async Task<(string Url, byte[] Message)> GrpcCallAsync(Scenario scenario)
    {
        var call = await RecordedAsync(scenario, Protocol.Grpc);
        return ($"http://{services.Addresses.Host}:{services.Addresses.GrpcHttp}{call.Path}", call.Body!);
    }

    private static async Task<PortableCall> RecordedAsync(Scenario scenario, Protocol protocol) =>
        await PortableScenario.RecordAsync(scenario, protocol, marker: "")
        ?? throw new InvalidOperationException($"{scenario.Name} over {protocol} is not one request and one answer: the driver check needs one.");

    /// <summary>The search's request as h2load sends it, written to the results folder and sent once to check it works; the problem, or null.</summary>
    private async Task<(string Path, string? Problem)> PrepareGrpcBodyAsync(Scenario scenario, string url, byte[] message, CancellationToken stop)
    {
        var body = results.File("grpc-search-request.bin");
        await File.WriteAllBytesAsync(body, GrpcFrame.Of(message), stop);
        return (body, await VerifyGrpcBodyAsync(url, body, scenario.Rows!.Value, stop));
    }

    /// <summary>Sends the prepared body once, the way h2load will, and checks grpc-status 0 and the expected rows.</summary>
    private static async Task<string?> VerifyGrpcBodyAsync(string url, string bodyFile, int rows, CancellationToken stop)
    {
        using var http = new HttpClient(new SocketsHttpHandler { UseProxy = false }) { Timeout = TimeSpan.FromSeconds(10) };
        using var request = new HttpRequestMessage(HttpMethod.Post, url)
        {
            Version = HttpVersion.Version20,
            VersionPolicy = HttpVersionPolicy.RequestVersionExact,
            Content = new ByteArrayContent(await File.ReadAllBytesAsync(bodyFile, stop)),
        };
        request.Content.Headers.ContentType = new System.Net.Http.Headers.MediaTypeHeaderValue("application/grpc");
        request.Headers.TryAddWithoutValidation("te", "trailers");
        using var response = await http.SendAsync(request, stop);
        var bytes = await response.Content.ReadAsByteArrayAsync(stop);
        var status = response.TrailingHeaders.TryGetValues("grpc-status", out var values) ? values.First()
            : response.Headers.TryGetValues("grpc-status", out var early) ? early.First() : "none";
        if (response.StatusCode != HttpStatusCode.OK || status != "0" || bytes.Length < 5)
        {
            return $"HTTP {(int)response.StatusCode}, grpc-status {status}, {bytes.Length} bytes";
        }

        var list = V1.AuthorList.Parser.ParseFrom(bytes.AsSpan(5));
        return list.Authors.Count == rows ? null : $"{list.Authors.Count} authors instead of {rows}";
    }

    private static string? Which(string tool) =>
        (Environment.GetEnvironmentVariable("PATH") ?? "").Split(':').Select(d => Path.Combine(d, tool)).FirstOrDefault(File.Exists);

    private DriverComparison Skipped(string endpoint, string tool, int users, int connections, string reason) =>
        new(endpoint, tool, "", users, connections, options.Duration.TotalSeconds, [], reason);
}
