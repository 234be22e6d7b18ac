using ProtocolBench.Lab.Reports;
using ProtocolBench.Lab.Stacks;

namespace ProtocolBench.LoadTests.Studies;

/// <summary>
/// The virtual-user study's cells driven by Locust (--engine locust): the same call the other stacks send
/// (<see cref="PortableCall"/>), sent by Locust's users on <see cref="Workers"/> workers (<see cref="LocustSwarm"/>), and
/// every report they send read here: the answers checked by this project's code, the creates entered in the cell's
/// ledger, every measured request's time kept to the microsecond (<see cref="LocustTally"/>). A cell whose worker is
/// lost is failed, not half-counted.
/// </summary>
public sealed class LocustUsers(LoadTestOptions options, ClientOptions client, ResultsFolder results, Action<string> log) : IAsyncDisposable
{
    /// <summary>
    /// What a create's recorded body names its author, which each Locust request replaces with a suffix of its own, as wide
    /// (worker-user-request: "001-000042-00007"), so a gRPC message's lengths still hold.
    /// </summary>
    public const string Placeholder = "################";

    private LocustSwarm? _swarm;
    private int _cells;

    /// <summary>One cell of the study: what the users send, how many, their warm-up each, the ledger of a create's names.</summary>
    public sealed record Cell(Scenario Scenario, Protocol Protocol, Transport Transport, int Users, int WarmupPerUser, CreateLedger? Ledger, string Label);

    private int _port = options.Locust.Port;
    private string _joined = "";

    public int Workers => options.Locust.Count;

    /// <summary>Who drove the load, as the report's setup says it.</summary>
    public string Description => $"Locust ({options.LocustVersions ?? "versions not read"}): {options.Locust.Describe(_port, _joined)}";

    /// <summary>The CPU time the Locust processes of this machine have used so far.</summary>
    public TimeSpan CpuTime => _swarm?.CpuTime ?? TimeSpan.Zero;

    /// <summary>
    /// The cell, and its measured requests' times in a histogram (as the .NET driver's cells leave theirs), or null when none
    /// was measured. The users warm up in <see cref="CellWarmup.Passes"/> passes, and <paramref name="settle"/> runs after
    /// each (<see cref="CellWarmup.SettleAsync"/>), once every user has sent its part; <paramref name="openCost"/> runs after the last, before any user is measured.
    /// </summary>
    public async Task<(UserCell Cell, LongHistogram? Histogram)> RunCellAsync(
        Cell cell, LiveProgress progress, Func<Task> settle, Func<Task<CostWindow>> openCost, CancellationToken stop)
    {
        var (scenario, protocol, transport, users, warmupPerUser, ledger, label) = cell;
        var marker = ledger is null ? "" : ledger.Prefix + Placeholder;
        if (await PortableScenario.RecordAsync(scenario, protocol, marker) is not { } call)
        {
            return (UserCell.NotRun(scenario, protocol, transport, users, options.Requests, $"skipped: {Display.Of(protocol)} sends it as a stream, which the Locust users do not read"), null);
        }

        if (_swarm is null or { Broken: true })
        {
            if (_swarm is not null)
            {
                await _swarm.DisposeAsync();
                _swarm = null;
            }

            try
            {
                // A new master takes the port of the first, which remote workers were told.
                _swarm = await LocustSwarm.StartAsync(options.Locust, _port, log, stop);
                _port = options.Locust.Remote ? _swarm.Port : 0;
                _joined = _swarm.Joined;
            }
            catch (InvalidDataException e)
            {
                return (UserCell.NotRun(scenario, protocol, transport, users, options.Requests, $"failed: {e.Message}"), null);
            }
            catch (OperationCanceledException) when (stop.IsCancellationRequested)
            {
                return (UserCell.NotRun(scenario, protocol, transport, users, options.Requests, "interrupted"), null);
            }
        }

        var job = StackRunner.Fields(call, transport, client);
        // Unique in the study: the master and the workers take only what names the cell in progress.
        job["cell"] = $"{scenario.Name}-{protocol}-{transport}-u{users}-{Interlocked.Increment(ref _cells)}".ToLowerInvariant();
        job["users"] = users;
        job["requests"] = options.Requests;
        job["warmup"] = warmupPerUser;
        var passes = CellWarmup.Passes(options);
        job["warmup_passes"] = passes;
        job["interval_seconds"] = options.UserInterval?.TotalSeconds;
        job["users_per_connection"] = options.UsersPerHttp2Connection;
        job["new_connection"] = options.Common.Conditions.Connections == ConnectionPolicy.New;
        job["certificate_pem"] = transport == Transport.Https && client.TrustedCertificatePath is { } pem ? await File.ReadAllTextAsync(pem, stop) : null;
        job["marker_placeholder"] = ledger is null ? null : Placeholder;

        var tally = new LocustTally(scenario, protocol, ledger);
        var description = $"{label} [grey](Locust, {Workers} worker(s))[/]";
        progress.Begin(description, (long)users * options.Requests, () => tally.Completed);
        CostWindow? window = null;
        CostPerOp? cost = null;
        var measuredFrom = TimeSpan.Zero;
        var warmed = 0;
        string? problem;
        try
        {
            problem = await _swarm.RunCellAsync(job, tally.AddAsync, async () =>
            {
                await settle();
                // The wait had a progress line of its own.
                progress.Begin(description, (long)users * options.Requests, () => tally.Completed);
                if (++warmed == passes)
                {
                    window = await openCost();
                    measuredFrom = CpuTime;
                }
            }, async () => cost = window is null ? null : await window.CloseAsync(tally.Measured.Issued, CpuTime - measuredFrom), stop);
        }
        catch (OperationCanceledException) when (stop.IsCancellationRequested)
        {
            return (UserCell.NotRun(scenario, protocol, transport, users, options.Requests, "interrupted"), null);
        }

        if (problem is not null)
        {
            return (UserCell.NotRun(scenario, protocol, transport, users, options.Requests, $"failed: {problem}"), null);
        }

        // Every time as its worker measured it, for whoever wants to compute the figures again.
        Directory.CreateDirectory(results.File("locust"));
        var file = results.File($"locust/{scenario.Name}-{protocol}-{transport}-u{users}.csv".ToLowerInvariant());
        await File.WriteAllTextAsync(file, Csv.Of(["worker", "micros"], tally.Rows), CancellationToken.None);
        var requests = tally.Measured.Summary();
        var seconds = tally.ElapsedSeconds;
        var measured = new UserCell(
            scenario, protocol, transport, users, options.Requests, tally.Connections, UserCell.Complete,
            seconds, seconds > 0 ? requests.Ok / seconds : 0, Latency.FromMicros(tally.Times), null, null, requests, tally.Warmup.Summary(), null, cost);
        return (measured, tally.Histogram());
    }

    public async ValueTask DisposeAsync()
    {
        if (_swarm is not null)
        {
            await _swarm.DisposeAsync();
        }
    }
}
