using Spectre.Console;

namespace ProtocolBench.LoadTests.Studies;

/// <summary>
/// Śliwa &amp; Pańczyk's study: for each scenario, each number of users, each protocol and transport (in that order,
/// so drift over the run touches every protocol alike), users × requests back to back after an excluded warm-up. The
/// users are this process's, or Locust's (<paramref name="locust"/>, --engine locust).
/// </summary>
public sealed class VirtualUserStudy(
    LoadTestOptions options, ClientPool pool, ServiceSession services, ResultsFolder results, CreatedAuthors created, LocustUsers? locust = null)
{
    public List<UserCell> Cells { get; } = [];

    public Dictionary<string, LongHistogram> Histograms { get; } = [];

    public long PlannedRequests =>
        options.UserScenarios.Sum(s =>
            options.Users.Sum(u => (long)u * options.Requests) * options.Protocols.Count(s.AppliesTo) * options.Transports.Count);

    public async Task RunAsync(LiveProgress progress, CancellationToken stop)
    {
        foreach (var scenario in options.UserScenarios)
        {
            foreach (var users in options.Users)
            {
                foreach (var protocol in options.Protocols)
                {
                    foreach (var transport in options.Transports)
                    {
                        if (stop.IsCancellationRequested)
                        {
                            return;
                        }

                        var planned = (long)users * options.Requests;
                        UserCell cell;
                        if (!scenario.AppliesTo(protocol))
                        {
                            cell = UserCell.NotRun(scenario, protocol, transport, users, options.Requests, "not applicable");
                            planned = 0;
                        }
                        else if (services.Deaths.TryGetValue(protocol, out var death))
                        {
                            cell = UserCell.NotRun(scenario, protocol, transport, users, options.Requests, $"skipped: {death}");
                        }
                        else
                        {
                            cell = await RunCellAsync(scenario, protocol, transport, users, progress, stop);
                        }

                        Cells.Add(cell);
                        results.AppendCell(cell);
                        progress.End(planned, Describe(cell));
                    }
                }
            }
        }
    }

    /// <summary>The cell, with the most memory its service held from before its users connect to their end, per connection it opened.</summary>
    private async Task<UserCell> RunCellAsync(
        Scenario scenario, Protocol protocol, Transport transport, int users, LiveProgress progress, CancellationToken stop)
    {
        var memory = ServiceMemory.Start(services.ProcessId(protocol));
        var opened = pool.Wire(protocol, transport).Connections;
        UserCell? cell = null;
        try
        {
            cell = await DriveCellAsync(scenario, protocol, transport, users, progress, stop);
        }
        finally
        {
            // Locust's users connect afresh in each cell; the .NET driver's keep their connections from cell to cell.
            var connections = cell is null ? 0 : locust is not null ? cell.Connections : (int)(pool.Wire(protocol, transport).Connections - opened);
            var held = memory?.End(connections);
            cell = cell is { Measured: true } ? cell with { Memory = held } : cell;
        }

        return cell!;
    }

    private async Task<UserCell> DriveCellAsync(
        Scenario scenario, Protocol protocol, Transport transport, int users, LiveProgress progress, CancellationToken stop)
    {
        using var cellStop = CancellationTokenSource.CreateLinkedTokenSource(stop, services.Alive(protocol));
        var id = $"{scenario.Name}-{protocol}-{transport}-u{users}".ToLowerInvariant();
        var ledger = scenario.Creates ? new CreateLedger(created.Name($"{protocol}-{transport}-u{users}-".ToLowerInvariant())) : null;
        var label = $"{scenario.Name} · {Display.Of(protocol)} {transport.ToString().ToUpperInvariant()} · {users} users";
        var perUser = Math.Max(options.WarmupPerUser, (options.WarmupTotal + users - 1) / users);
        if (locust is not null)
        {
            var (measured, times) = await locust.RunCellAsync(
                new LocustUsers.Cell(scenario, protocol, transport, users, perUser, ledger, label), progress,
                () => CellWarmup.SettleAsync(options, services, protocol, progress, label, cellStop.Token),
                () => CostWindow.OpenAsync(services.Meter(protocol)),
                cellStop.Token);
            if (times is not null)
            {
                Histograms[id] = times;
            }

            return measured.Measured ? await SettleAsync(measured, ledger, stop) : measured;
        }

        IReadOnlyList<IProtocolClient> clients;
        try
        {
            clients = pool.For(scenario, protocol, transport, users);
        }
        catch (Exception e) when (e is NotSupportedException or InvalidOperationException)
        {
            return UserCell.NotRun(scenario, protocol, transport, users, options.Requests, $"skipped: {e.Message}");
        }

        var warmedUp = await CellWarmup.RunAsync(
            options, services, protocol, progress, label,
            (pass, tally) => new UserLoad(new ScenarioSender(scenario, options.Timeout, ledger, $"w{pass}", tally), clients, users, perUser),
            cellStop.Token);

        var load = new UserLoad(new ScenarioSender(scenario, options.Timeout, ledger), clients, users, options.Requests) { Interval = options.UserInterval };
        // The service's account is read with it idle at both ends (ServiceMeter.Pause), so it holds these requests only.
        var window = await CostWindow.OpenAsync(services.Meter(protocol));
        var before = pool.Wire(protocol, transport);
        progress.Begin(label, load.Planned, () => load.Completed);
        await load.RunAsync(cellStop.Token);
        var after = pool.Wire(protocol, transport);
        var cost = await window.CloseAsync(load.Tally.Issued);

        var histogram = load.Merged();
        Histograms[id] = histogram;
        var requests = load.Tally.Summary();
        var seconds = load.Elapsed.TotalSeconds;
        var cell = new UserCell(
            scenario, protocol, transport, users, options.Requests,
            options.Common.Conditions.Connections == ConnectionPolicy.New ? (int)(after.Connections - before.Connections) : pool.Connections(protocol, transport, users),
            UserCell.Complete,
            seconds, seconds > 0 ? requests.Ok / seconds : 0, Latency.From(histogram),
            after.Sent - before.Sent, after.Received - before.Received, requests, warmedUp.Summary(), null,
            cost);
        return await SettleAsync(cell, ledger, stop);
    }

    /// <summary>A measured cell's status (interrupted, or its service dead meanwhile) and its nothing-lost check, whoever drove it.</summary>
    private async Task<UserCell> SettleAsync(UserCell cell, CreateLedger? ledger, CancellationToken stop)
    {
        var status = stop.IsCancellationRequested
            ? "interrupted"
            : services.Deaths.TryGetValue(cell.Protocol, out var death) ? $"aborted: {death}" : cell.Status;
        if (services.External && cell.Requests.NotOk > 0)
        {
            await services.CheckExternalAsync(cell.Protocol);
        }

        NothingLostResult? nothingLost = null;
        if (ledger is not null)
        {
            nothingLost = await NothingLostResult.CheckAsync(services.Database, ledger, CancellationToken.None);
        }

        return cell with { Status = status, NothingLost = nothingLost };
    }

    private static string Describe(UserCell c)
    {
        var name = $"{c.Scenario} {Display.Of(c.Protocol)} {Display.Of(c.Transport)} ×{c.Users}";
        if (!c.Measured)
        {
            return $"[grey]{Markup.Escape(name)}: {Markup.Escape(c.Status)}[/]";
        }

        var colour = c.Requests.NotOk > 0 || !c.Requests.Balanced || c.NothingLost is { Failed: true } ? "red" : "green";
        var line = $"[{colour}]✓[/] {Markup.Escape(name)}: {c.RequestsPerSecond:F0} req/s, p50 {c.Latency.P50Ms:F1} ms, " +
                   $"p99 {c.Latency.P99Ms:F1} ms, {(c.BytesReceived is null ? "" : $"{c.MegabytesReceived:F2} MB in, ")}errors {Markup.Escape(c.Requests.ErrorText)}";
        if (c.NothingLost is { } check)
        {
            line += $"; {Markup.Escape(check.Verdict)}";
        }

        return c.Status == UserCell.Complete ? line : $"{line} [yellow]({Markup.Escape(c.Status)})[/]";
    }
}
