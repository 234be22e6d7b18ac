using ProtocolBench.Lab.Conditions;
using Spectre.Console;

namespace ProtocolBench.LoadTests.Studies;

/// <summary>
/// Bolanowski's study: one request every 1/rate seconds on a fixed schedule (the next one does not wait for a slow
/// answer, so a stall shows as latency instead of hiding as a gap), each timed by Stopwatch, one series per cell. With
/// --client another stack's process sends the stream and times it (<see cref="StackStream"/>).
/// </summary>
public sealed class PacedStudy(LoadTestOptions options, ClientPool pool, ServiceSession services, ResultsFolder results, CreatedAuthors created)
{
    /// <summary>
    /// The pause a stack's process (--client) makes between its warm-up and its first paced request, for the service's
    /// tier-1 compiler; it cannot watch the service for quiet as this process does (<see cref="CellWarmup"/>).
    /// </summary>
    public static readonly TimeSpan Settle = TimeSpan.FromMilliseconds(500);

    private readonly StackStream? _stack = options.Common.Conditions.Client == ClientStack.Dotnet
        ? null
        : new StackStream(options, options.Common.ClientOptions(services.Addresses) with { CallTimeout = options.Timeout });

    public List<PacedCell> Cells { get; } = [];

    public long PlannedRequests =>
        options.PacedScenarios.Sum(s => (long)options.Count * options.Protocols.Count(s.AppliesTo) * options.Transports.Count);

    public async Task RunAsync(LiveProgress progress, CancellationToken stop)
    {
        foreach (var scenario in options.PacedScenarios)
        {
            foreach (var protocol in options.Protocols)
            {
                foreach (var transport in options.Transports)
                {
                    if (stop.IsCancellationRequested)
                    {
                        return;
                    }

                    if (!scenario.AppliesTo(protocol))
                    {
                        continue;
                    }

                    var cell = services.Deaths.TryGetValue(protocol, out var death)
                        ? Empty(scenario, protocol, transport, $"skipped: {death}")
                        : await RunCellAsync(scenario, protocol, transport, progress, stop);
                    Cells.Add(cell);
                    results.AppendPaced(cell);
                    progress.End(options.Count, Describe(cell));
                }
            }
        }
    }

    private async Task<PacedCell> RunCellAsync(Scenario scenario, Protocol protocol, Transport transport, LiveProgress progress, CancellationToken stop)
    {
        using var cellStop = CancellationTokenSource.CreateLinkedTokenSource(stop, services.Alive(protocol));
        var label = $"paced {scenario.Name} · {Display.Of(protocol)} {transport.ToString().ToUpperInvariant()} · {options.Rate:0.##}/s";
        if (_stack is not null)
        {
            var cell = await _stack.RunCellAsync(scenario, protocol, transport, label, progress, cellStop.Token);
            return stop.IsCancellationRequested ? cell with { Status = "interrupted" }
                : services.Deaths.TryGetValue(protocol, out var died) ? cell with { Status = $"aborted: {died}" }
                : cell;
        }

        IProtocolClient client;
        try
        {
            client = pool.For(scenario, protocol, transport, 1)[0];
        }
        catch (Exception e) when (e is NotSupportedException or InvalidOperationException)
        {
            return Empty(scenario, protocol, transport, $"skipped: {e.Message}");
        }

        var ledger = scenario.Creates ? new CreateLedger(created.Name($"paced-{protocol}-{transport}-".ToLowerInvariant())) : null;

        await CellWarmup.RunAsync(
            options, services, protocol, progress, label,
            (pass, tally) => new UserLoad(new ScenarioSender(scenario, options.Timeout, ledger, $"w{pass}", tally), [client], 1, options.PacedWarmup),
            cellStop.Token);

        var sender = new ScenarioSender(scenario, options.Timeout, ledger);
        var samples = new PacedSample?[options.Count];
        var completed = 0L;
        var before = pool.Wire(protocol, transport);
        progress.Begin(label, options.Count, () => Interlocked.Read(ref completed));
        var interval = Stopwatch.Frequency / options.Rate;
        var origin = Stopwatch.GetTimestamp();
        var inFlight = new List<Task>();
        for (var i = 0; i < options.Count; i++)
        {
            var due = origin + (long)(i * interval);
            var wait = Stopwatch.GetElapsedTime(Stopwatch.GetTimestamp(), due);
            try
            {
                if (wait > TimeSpan.Zero)
                {
                    await Task.Delay(wait, cellStop.Token);
                }
            }
            catch (OperationCanceledException)
            {
                break;
            }

            var index = i;
            inFlight.Add(Task.Run(async () =>
            {
                samples[index] = await OneAsync(sender, client, index, origin, due, cellStop.Token);
                Interlocked.Increment(ref completed);
            }, CancellationToken.None));
        }

        try
        {
            await Task.WhenAll(inFlight);
        }
        catch (Exception) when (inFlight.Any(t => t.IsFaulted))
        {
            // A crashed request task leaves its request unsettled: the tally shows it.
        }

        var after = pool.Wire(protocol, transport);
        var taken = samples.Where(s => s is not null).Select(s => s!).ToList();
        var status = stop.IsCancellationRequested
            ? "interrupted"
            : services.Deaths.TryGetValue(protocol, out var death) ? $"aborted: {death}" : UserCell.Complete;
        var nothingLost = ledger is null ? null : await NothingLostResult.CheckAsync(services.Database, ledger, CancellationToken.None);
        return PacedCell.Of(
            scenario, protocol, transport, options.Rate, options.Count, status, taken, (after.Sent - before.Sent, after.Received - before.Received),
            sender.Tally.Summary(), nothingLost);
    }

    private static async Task<PacedSample> OneAsync(ScenarioSender sender, IProtocolClient client, int index, long origin, long due, CancellationToken stop)
    {
        var attempt = await sender.SendAsync(client, sender.Marker($"{index}"), stop);
        return new PacedSample(
            index,
            Stopwatch.GetElapsedTime(origin, due).TotalMilliseconds,
            Stopwatch.GetElapsedTime(origin, attempt.Started).TotalMilliseconds,
            attempt.Elapsed.TotalMilliseconds,
            attempt.Outcome.Kind,
            attempt.Outcome.Error);
    }

    private PacedCell Empty(Scenario scenario, Protocol protocol, Transport transport, string status) =>
        PacedCell.Empty(scenario, protocol, transport, options.Rate, options.Count, status);

    private static string Describe(PacedCell c)
    {
        var name = $"paced {c.Scenario} {Display.Of(c.Protocol)} {Display.Of(c.Transport)}";
        if (!c.Measured)
        {
            return $"[grey]{Markup.Escape(name)}: {Markup.Escape(c.Status)}[/]";
        }

        var colour = c.Requests.NotOk > 0 || !c.Requests.Balanced ? "red" : "green";
        return $"[{colour}]✓[/] {Markup.Escape(name)}: median {c.MedianMs:F2} ms (min {c.MinMs:F2}, max {c.MaxMs:F2}), " +
               $"errors {Markup.Escape(c.Requests.ErrorText)}" + (c.Status == UserCell.Complete ? "" : $" [yellow]({Markup.Escape(c.Status)})[/]");
    }
}
