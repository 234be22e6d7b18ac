using ProtocolBench.Shared.Domain.Data;
using Spectre.Console;

namespace ProtocolBench.LoadTests.Cli;

/// <summary>
/// One run: pin the driver, start (or find) the services, run the studies under live progress, and whatever
/// happens (Ctrl+C, a dead service, an error) write the results, stop the services and return an exit code.
/// </summary>
public static class LoadTestRun
{
    /// <summary>Names the authors this command's creates write (<see cref="CreatedAuthors"/>).</summary>
    private const string Command = "load";

    public static async Task<int> MainAsync(string[] args)
    {
        var (options, parseExit) = LoadTestCommandLine.Parse(args);
        if (options is null)
        {
            return parseExit;
        }

        if (Console.IsOutputRedirected)
        {
            // A log file or CI: no terminal to ask, so give the tables room instead of the 80-column default.
            AnsiConsole.Profile.Width = 200;
        }

        using var interruption = new Interruption();
        var started = DateTimeOffset.UtcNow;
        var runId = RunDescription.NewId(started);
        var created = new CreatedAuthors(Command, runId);
        var common = options.Common;
        var pinning = common.Pinning;
        var pinned = pinning.Apply();
        using var idle = CpuIdle.Hold(common.NoIdlePoll);
        var machine = MachineInfo.Current();
        var results = new ResultsFolder(common.Results, started);
        AnsiConsole.MarkupLine($"[bold]ProtocolBench load tests[/] · {options.Mode.ToString().ToLowerInvariant()}{(options.Quick ? " --quick" : "")} · run {runId}");
        AnsiConsole.MarkupLine($"[grey]{Markup.Escape($"{machine.Describe()}, {machine.OperatingSystem}, {machine.Runtime}")}[/]");
        AnsiConsole.MarkupLine($"[grey]Pinning: {Markup.Escape(pinned)}[/]");
        AnsiConsole.MarkupLine($"[grey]Idle cores: {Markup.Escape(idle.Description)}[/]");
        AnsiConsole.MarkupLine($"[grey]results: {Markup.Escape(results.Path)}[/]");

        var problems = new List<string>();
        var exit = 0;
        ServiceSession? services = null;
        ClientPool? pool = null;
        LocustUsers? locust = null;
        VirtualUserStudy? users = null;
        PacedStudy? paced = null;
        RateSweep? sweep = null;
        DriverCheckResult? driverCheck = null;
        try
        {
            services = await StartServicesAsync(options, interruption.Token);
            pool = new ClientPool(ClientOptionsFor(options, services.Addresses), options);
            locust = options.Engine == UserEngine.Locust ? new LocustUsers(options, ClientOptionsFor(options, services.Addresses), results, Log) : null;
            users = new VirtualUserStudy(options, pool, services, results, created, locust);
            paced = new PacedStudy(options, pool, services, results, created);
            sweep = new RateSweep(options, pool, services, results, created);
            var check = new DriverCheck(options, pool, services, results, pinning.ClientCpus, sweep);
            var total = options.Mode switch
            {
                Mode.DriverCheck => check.PlannedSteps,
                Mode.Rate => sweep.PlannedRequests,
                _ => (options.RunsUsers ? users.PlannedRequests : 0) + (options.RunsPaced ? paced.PlannedRequests : 0),
            };
            await LiveProgress.RunAsync(total, async progress =>
            {
                if (options.RunsUsers)
                {
                    await users.RunAsync(progress, interruption.Token);
                }

                if (options.RunsPaced)
                {
                    await paced.RunAsync(progress, interruption.Token);
                }

                if (options.Mode == Mode.Rate)
                {
                    await sweep.RunAsync(progress, interruption.Token);
                }

                if (options.Mode == Mode.DriverCheck)
                {
                    driverCheck = await check.RunAsync(progress, interruption.Token);
                }

                return 0;
            });
        }
        catch (LaunchException e)
        {
            problems.Add(e.Message);
            exit = ExitCodes.ServiceFailed;
        }
        catch (OperationCanceledException) when (interruption.Requested)
        {
        }
        catch (Exception e)
        {
            problems.Add($"unexpected error: {e}");
            exit = ExitCodes.CheckFailed;
        }

        if (pool is not null)
        {
            await pool.DisposeAsync();
        }

        if (locust is not null)
        {
            await locust.DisposeAsync();
        }

        // Whatever happens from here on, the session is disposed at the end: the services stopped, a shaped link removed.
        RunReport report;
        try
        {
            if (services is not null)
            {
                foreach (var death in services.Deaths.Values)
                {
                    problems.Add(death);
                    exit = ExitCodes.ServiceFailed;
                }

                try
                {
                    await services.StopAsync();
                }
                catch (Exception e) when (e is LaunchException or TimeoutException or InvalidOperationException)
                {
                    problems.Add($"stopping the services: {e.Message}");
                    exit = ExitCodes.ServiceFailed;
                }
            }

            var userCells = users?.Cells ?? [];
            foreach (var failed in userCells.Where(c => c.Status.StartsWith("failed:", StringComparison.Ordinal)))
            {
                // A Locust cell that lost a worker or could not start: failed and named, never half-counted.
                problems.Add($"{failed.Scenario.Name} {Display.Of(failed.Protocol, failed.Transport)} ×{failed.Users}: {failed.Status}");
                exit = exit == 0 ? ExitCodes.CheckFailed : exit;
            }

            var pacedCells = paced?.Cells ?? [];
            var rateCells = sweep?.Cells ?? [];
            var cleanup = await CleanUpAsync(options, services, created, userCells, pacedCells, rateCells);
            var run = new RunDescription
            {
                Id = runId,
                CommandLine = ShellCommand.Of("loadtests", args),
                Started = started,
                Finished = DateTimeOffset.UtcNow,
                Interrupted = interruption.Reason,
                Machine = machine,
                Pinning = pinned,
                CpuIdle = idle.Description,
                Services = services?.Description ?? "not started",
                Database = services?.DatabaseSetup ?? (common.External is null ? "not started" : "unknown (external services)"),
                HttpVersions = common.HttpVersions,
                Conditions = services is null ? common.Conditions : await services.AppliedAsync(common.Conditions),
            };
            report = new RunReport(
                run, options.Mode.ToString().ToLowerInvariant(), problems, SettingsFor(options, locust), userCells, pacedCells,
                PaperFindings.Compare(userCells, pacedCells), driverCheck, cleanup, rateCells);
            results.WriteAll(report, users?.Histograms ?? new Dictionary<string, LongHistogram>());
            ConsoleReport.Write(report, results.Path);
        }
        finally
        {
            if (services is not null)
            {
                await services.DisposeAsync();
            }
        }

        if (interruption.Requested)
        {
            return interruption.ExitCode;
        }

        if (exit != 0)
        {
            return exit;
        }

        if (!report.TallyBalanced || report.NothingLostChecks.Any(c => c.Failed))
        {
            return ExitCodes.CheckFailed;
        }

        if (options.FailOnErrors && report.Errors > 0)
        {
            AnsiConsole.MarkupLine($"[red]{report.Errors} requests failed or timed out (--fail-on-errors).[/]");
            return ExitCodes.CheckFailed;
        }

        return 0;
    }

    /// <summary>The services the mode needs, started (on a database file of their own) or found (--external).</summary>
    private static async Task<ServiceSession> StartServicesAsync(LoadTestOptions options, CancellationToken stopping)
    {
        IReadOnlyList<Protocol> protocols = options.Mode == Mode.DriverCheck ? [Protocol.Rest, Protocol.Grpc] : options.Protocols;
        var common = options.Common;
        if (common.External is null)
        {
            if (common.Database is { Provider: DatabaseProvider.Sqlite, ConnectionString: null or "" })
            {
                // Its own file: the create scenario's authors never land in the benchmark command's database.
                var file = Path.Combine(Path.GetDirectoryName(DatabaseOptions.DefaultSqlitePath)!, "protocolbench-loadtests.db");
                common = common with { Database = new DatabaseOptions { Provider = DatabaseProvider.Sqlite, ConnectionString = $"Data Source={file}" } };
            }
        }

        return await ServiceSession.OpenAsync(common, protocols, Log, stopping);
    }

    private static void Log(string message) => AnsiConsole.MarkupLine($"[grey]{Markup.Escape(message)}[/]");

    private static ClientOptions ClientOptionsFor(LoadTestOptions options, ServiceAddresses addresses) => options.Common.ClientOptions(addresses) with
    {
        CallTimeout = options.Timeout,
        // HTTP/1.1 carries one request at a time: at least one connection per virtual user, and for the open-loop sweep
        // as many as its queue asks for up to RateSweep.Clients.
        MaxConnectionsPerServer = Math.Max(Math.Max(options.Users.Max(), options.CheckUsers), options.Mode == Mode.Rate ? RateSweep.Clients : 0),
    };

    private static Settings SettingsFor(LoadTestOptions o, LocustUsers? locust) => new(
        o.Protocols, o.Transports, o.Users, o.Requests, o.WarmupPerUser, o.WarmupTotal, o.UserScenarios, o.PacedScenarios, o.Rate, o.Count, o.PacedWarmup,
        o.Timeout.TotalSeconds, o.UsersPerHttp2Connection, o.Quick, o.RateScenarios, o.Rates, o.StepDuration.TotalSeconds, o.P99Bound.TotalMilliseconds)
    {
        UserDriver = locust?.Description,
        UserIntervalSeconds = o.UserInterval?.TotalSeconds,
    };

    /// <summary>Deletes the authors this run created, after they were checked, so the database does not grow run after run.</summary>
    private static async Task<string?> CleanUpAsync(
        LoadTestOptions options, ServiceSession? services, CreatedAuthors created, IReadOnlyList<UserCell> users, IReadOnlyList<PacedCell> paced,
        IReadOnlyList<RateCell> rates)
    {
        var wrote = users.Any(c => c.NothingLost is not null) || paced.Any(c => c.NothingLost is not null) || rates.Any(c => c.NothingLost is not null);
        if (!wrote || services is null)
        {
            return null;
        }

        if (options.KeepCreated)
        {
            return $"The created authors were kept (--keep-created): names starting {created.Prefix}.";
        }

        try
        {
            // Services started elsewhere (--external): their database is out of reach, so through a client of the run's first
            // protocol, one request per author (a full study's 32,500 creates take minutes that way).
            var database = services.Database;
            var (protocol, transport) = (options.Protocols[0], options.Transports[0]);
            using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(database is null ? 10 : 1));
            await using var operations = database is null
                ? ProtocolClients.Create(protocol, transport, ClientOptionsFor(options, services.Addresses))
                : (ILibraryOperations)new InProcessOperations(database);
            var deleted = await CreatedAuthors.DeleteAsync(operations, created.Prefix, timeout.Token);
            var where = database is null ? $"through {Display.Of(protocol, transport)}" : "from the database";
            return $"Afterwards the {deleted} authors of this run ({created.Prefix}*) were deleted {where}.";
        }
        catch (Exception e)
        {
            return $"Deleting this run's authors ({created.Prefix}*) failed: {e.Message}";
        }
    }
}
