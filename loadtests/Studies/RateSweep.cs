using Spectre.Console;

namespace ProtocolBench.LoadTests.Studies;

/// <summary>
/// The open-loop rate sweep: per scenario, protocol and transport, requests sent on a fixed schedule at each offered
/// rate in turn, whether or not the earlier ones have been answered, so a slow service meets a queue instead of a
/// patient client. Latency counts from each request's intended send time (coordinated-omission free, HdrHistogram).
/// A cell stops at the first rate whose p99 exceeds the bound or that has errors: the rate before it is the saturation
/// point. At most <see cref="MaxInFlight"/> requests are in flight; a request waiting for a slot keeps its intended time.
/// </summary>
public sealed class RateSweep(LoadTestOptions options, ClientPool pool, ServiceSession services, ResultsFolder results, CreatedAuthors created)
{
    /// <summary>Requests in flight at most: bounds the driver's memory when a service stops answering.</summary>
    public const int MaxInFlight = 2000;

    /// <summary>Clients per cell, as for 50 virtual users: HTTP/1.1 opens connections as the queue needs them, HTTP/2 has five.</summary>
    public const int Clients = 50;

    /// <summary>A step sends at least this many requests (longer than --step-seconds at low rates), so that its p99 is not just its slowest request.</summary>
    public const int MinRequestsPerStep = 200;

    /// <summary>The users of a cell's warm-up, each sending the scenario back to back.</summary>
    public const int WarmupUsers = 10;

    /// <summary>
    /// Before the first step, the warm-up users send this many requests (a tenth with --quick) and then go on for
    /// <see cref="Warmup"/>: the service's code reaches full tier and its heap a steady state. A count, not only a time:
    /// with 2 s alone the first cell on a service measured its first step on code still compiling (gRPC's search of
    /// 3,112 authors p99 194 ms at 25/s over HTTP, 20 ms over HTTPS after it; GraphQL's p50 3.4 s against 31 ms).
    /// </summary>
    public static int WarmupRequests(bool quick) => quick ? 20 : 200;

    /// <summary>How long the warm-up goes on after its <see cref="WarmupRequests"/> (a quarter with --quick).</summary>
    public static TimeSpan Warmup(bool quick) => TimeSpan.FromSeconds(quick ? 0.5 : 2);

    public List<RateCell> Cells { get; } = [];

    public long PlannedRequests => options.RateScenarios.Sum(s => StepRequests * options.Protocols.Count(s.AppliesTo) * options.Transports.Count);

    private long StepRequests => options.Rates.Sum(RequestsAt);

    public async Task RunAsync(LiveProgress progress, CancellationToken stop)
    {
        foreach (var scenario in options.RateScenarios)
        {
            foreach (var protocol in options.Protocols.Where(scenario.AppliesTo))
            {
                foreach (var transport in options.Transports)
                {
                    if (stop.IsCancellationRequested)
                    {
                        return;
                    }

                    var cell = services.Deaths.TryGetValue(protocol, out var death)
                        ? new RateCell(scenario, protocol, transport, $"skipped: {death}", [], null, null)
                        : await RunCellAsync(scenario, protocol, transport, progress, stop);
                    Cells.Add(cell);
                    results.AppendRate(cell);
                    progress.End(StepRequests, Describe(cell));
                }
            }
        }
    }

    private long RequestsAt(double rate) => (long)Math.Ceiling(rate * StepLength(rate).TotalSeconds);

    private TimeSpan StepLength(double rate) =>
        TimeSpan.FromSeconds(Math.Max(options.StepDuration.TotalSeconds, Math.Min(MinRequestsPerStep / rate, 4 * options.StepDuration.TotalSeconds)));

    private async Task<RateCell> RunCellAsync(Scenario scenario, Protocol protocol, Transport transport, LiveProgress progress, CancellationToken stop)
    {
        using var cellStop = CancellationTokenSource.CreateLinkedTokenSource(stop, services.Alive(protocol));
        IReadOnlyList<IProtocolClient> clients;
        try
        {
            clients = pool.For(scenario, protocol, transport, Clients);
        }
        catch (Exception e) when (e is NotSupportedException or InvalidOperationException)
        {
            return new RateCell(scenario, protocol, transport, $"skipped: {e.Message}", [], null, null);
        }

        var ledger = scenario.Creates ? new CreateLedger(created.Name($"rate-{protocol}-{transport}-".ToLowerInvariant())) : null;
        var label = $"rate {scenario.Name} · {Display.Of(protocol)} {transport.ToString().ToUpperInvariant()}";
        var byCount = new UserLoad(new ScenarioSender(scenario, options.Timeout, ledger, "wc"), clients, WarmupUsers, WarmupRequests(options.Quick) / WarmupUsers);
        progress.Begin($"{label} [grey](warm-up)[/]", byCount.Planned, () => byCount.Completed);
        await byCount.RunAsync(cellStop.Token);
        var warmupLength = Warmup(options.Quick);
        var byTime = new UserLoad(new ScenarioSender(scenario, options.Timeout, ledger, "wt"), clients, WarmupUsers, int.MaxValue, warmupLength);
        var clock = Stopwatch.StartNew();
        progress.Begin($"{label} [grey](warm-up)[/]", (long)warmupLength.TotalMilliseconds, () => clock.ElapsedMilliseconds);
        await byTime.RunAsync(cellStop.Token);
        await CellWarmup.QuietAsync(options, services, protocol, progress, label, cellStop.Token);

        var steps = new List<RateStep>();
        foreach (var rate in options.Rates)
        {
            if (cellStop.IsCancellationRequested)
            {
                break;
            }

            GC.Collect();
            var step = await StepAsync(scenario, protocol, clients, ledger, rate, StepLength(rate), $"{label} · {rate:0.##}/s", progress, cellStop.Token);
            steps.Add(step);
            if (!step.WithinBound)
            {
                break;
            }
        }

        var status = stop.IsCancellationRequested
            ? "interrupted"
            : services.Deaths.TryGetValue(protocol, out var death) ? $"aborted: {death}" : UserCell.Complete;
        var nothingLost = ledger is null ? null : await NothingLostResult.CheckAsync(services.Database, ledger, CancellationToken.None);
        var within = steps.TakeWhile(s => s.WithinBound).ToList();
        return new RateCell(scenario, protocol, transport, status, steps, within.Count > 0 ? within[^1].OfferedRate : null, nothingLost);
    }

    /// <summary>One step of a read scenario on warm clients, at <paramref name="rate"/> for <paramref name="duration"/>: the driver check's side.</summary>
    public Task<RateStep> MeasureAsync(
        Scenario scenario, Protocol protocol, Transport transport, double rate, TimeSpan duration, LiveProgress progress, CancellationToken stop) =>
        StepAsync(scenario, protocol, pool.For(scenario, protocol, transport, Clients), null, rate, duration,
            $"rate {scenario.Name} · {Display.Of(protocol, transport)} · {rate:0.##}/s", progress, stop);

    private async Task<RateStep> StepAsync(
        Scenario scenario, Protocol protocol, IReadOnlyList<IProtocolClient> clients, CreateLedger? ledger, double rate, TimeSpan duration, string label,
        LiveProgress progress, CancellationToken stop)
    {
        var sender = new ScenarioSender(scenario, options.Timeout, ledger, $"r{rate:0.##}-");
        var histogram = new LongHistogram(
            (long)Math.Max(TimeSpan.FromMinutes(1).TotalMicroseconds, 2 * (duration + sender.Backstop).TotalMicroseconds), 3);
        var count = (long)Math.Ceiling(rate * duration.TotalSeconds);
        var completed = 0L;
        var maxLate = 0L;
        using var slots = new SemaphoreSlim(MaxInFlight);
        var window = await CostWindow.OpenAsync(services.Meter(protocol));
        progress.Begin(label, count, () => Interlocked.Read(ref completed));

        var interval = Stopwatch.Frequency / rate;
        var origin = Stopwatch.GetTimestamp();
        var inFlight = new List<Task>((int)count);
        for (var i = 0L; i < count && !stop.IsCancellationRequested; i++)
        {
            var due = origin + (long)(i * interval);
            try
            {
                // Timers wake in steps of about a millisecond: every request already due goes out on the same wake.
                var wait = Stopwatch.GetElapsedTime(Stopwatch.GetTimestamp(), due);
                if (wait > TimeSpan.FromMilliseconds(1))
                {
                    await Task.Delay(wait, stop);
                }

                await slots.WaitAsync(stop);
            }
            catch (OperationCanceledException)
            {
                break;
            }

            maxLate = Math.Max(maxLate, Stopwatch.GetTimestamp() - due);
            var client = clients[(int)(i % clients.Count)];
            var marker = sender.Marker($"{i}");
            inFlight.Add(SendAsync(sender, client, marker, due, histogram, slots, () => Interlocked.Increment(ref completed), stop));
        }

        await Task.WhenAll(inFlight);
        // The step lasts its schedule at least, also when the last answer comes before the schedule's end.
        var seconds = Math.Max(Stopwatch.GetElapsedTime(origin).TotalSeconds, count / rate);
        var cost = await window.CloseAsync(sender.Tally.Issued);
        var requests = sender.Tally.Summary();
        var latency = Latency.From(histogram);
        var complete = requests.Issued == count && !stop.IsCancellationRequested;
        return new RateStep(
            rate, seconds, requests, latency, maxLate * 1000.0 / Stopwatch.Frequency, cost,
            complete && requests.NotOk == 0 && latency.P99Ms <= options.P99Bound.TotalMilliseconds);
    }

    private static async Task SendAsync(
        ScenarioSender sender, IProtocolClient client, string marker, long due, LongHistogram histogram, SemaphoreSlim slots, Action done, CancellationToken stop)
    {
        try
        {
            var attempt = await sender.SendAsync(client, marker, stop).ConfigureAwait(false);
            if (attempt.Ok)
            {
                var micros = (long)Stopwatch.GetElapsedTime(due).TotalMicroseconds;
                lock (histogram)
                {
                    histogram.RecordValue(Math.Clamp(micros, 1, histogram.HighestTrackableValue));
                }
            }
        }
        finally
        {
            slots.Release();
            done();
        }
    }

    private static string Describe(RateCell c)
    {
        var name = $"rate {c.Scenario} {Display.Of(c.Protocol)} {Display.Of(c.Transport)}";
        if (!c.Measured)
        {
            return $"[grey]{Markup.Escape(name)}: {Markup.Escape(c.Status)}[/]";
        }

        var last = c.Steps[^1];
        var saturation = c.Saturation is { } s ? $"within the bound up to {s:0.##}/s" : $"beyond the bound already at {c.Steps[0].OfferedRate:0.##}/s";
        var why = c.Saturated ? $"; at {last.OfferedRate:0.##}/s p99 {last.Latency.P99Ms:F1} ms, errors {Markup.Escape(last.Requests.ErrorText)}" : "; every rate within the bound";
        return $"[green]✓[/] {Markup.Escape(name)}: {saturation}{why}" + (c.Status == UserCell.Complete ? "" : $" [yellow]({Markup.Escape(c.Status)})[/]");
    }
}
