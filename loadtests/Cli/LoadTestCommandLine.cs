using System.CommandLine;

namespace ProtocolBench.LoadTests.Cli;

/// <summary>The load command's command line (System.CommandLine): its options, parsed into the <see cref="LoadTestOptions"/> the studies run by.</summary>
public static class LoadTestCommandLine
{
    /// <summary>The options, or the exit code when there is nothing to run (after --help: 0; bad options: 2).</summary>
    public static (LoadTestOptions? Options, int Exit) Parse(IReadOnlyList<string> args)
    {
        var common = new CommonOptions();
        var mode = new Argument<Mode>("mode")
        {
            Description = "users: virtual users back to back (Śliwa & Pańczyk); paced: a fixed rate of single requests (Bolanowski); " +
                          "all: both on one start of the services; rate: an open-loop sweep of offered rates up to saturation; " +
                          "driver-check: our driver against wrk and h2load (throughput), hey and h2load (latency at a fixed rate)",
            HelpName = "users|paced|all|rate|driver-check",
            Arity = ArgumentArity.ZeroOrOne,
            DefaultValueFactory = _ => Mode.Users,
            CustomParser = result => result.Tokens[0].Value switch
            {
                "users" => Mode.Users,
                "paced" => Mode.Paced,
                "all" => Mode.All,
                "driver-check" => Mode.DriverCheck,
                "rate" => Mode.Rate,
                ['-', ..] and var option => Error(result, $"Unknown option '{option}'.", Mode.Users),
                var other => Error(result, $"Unknown mode '{other}'. Modes: users, paced, all, rate, driver-check.", Mode.Users),
            },
        };
        var protocols = new Option<IReadOnlyList<Protocol>>("--protocols")
        {
            Description = "rest,grpc,graphql,signalr,signalr-messagepack (rate: rest,grpc,graphql unless given)", HelpName = "LIST", DefaultValueFactory = _ => Display.Protocols,
            CustomParser = r => ValueParsers.List(r, ValueParsers.ParseProtocol),
        };
        var transports = new Option<IReadOnlyList<Transport>>("--transports")
        {
            Description = "http,https", HelpName = "LIST", DefaultValueFactory = _ => Display.Transports,
            CustomParser = r => ValueParsers.List(r, ValueParsers.ParseTransport),
        };
        var scenarios = new Option<IReadOnlyList<Scenario>?>("--scenarios")
        {
            Description = $"users default: {string.Join(',', LoadTestOptions.DefaultUserScenarios)}; paced default: {string.Join(',', LoadTestOptions.DefaultPacedScenarios)}; " +
                          $"any of {string.Join(", ", Catalogue.Names)}, or I..VII, or floor (GET /baseline on REST's port: the engine's own cost per call); in `all` the list applies to both studies",
            HelpName = "LIST",
            CustomParser = r => ValueParsers.List(r, s => UserFloor.Find(s) ?? throw new FormatException($"'{s}' is not a scenario")),
        };
        var users = new Option<IReadOnlyList<int>>("--users")
        {
            Description = "Virtual users per cell", HelpName = "LIST", DefaultValueFactory = _ => [1, 10, 50],
            CustomParser = r => ValueParsers.List(r, v => int.TryParse(v, out var n) && n > 0 ? n : throw new FormatException($"'{v}' is not a positive whole number")),
        };
        var requests = IntOption("--requests", "Requests per user", 50, ValueParsers.PositiveInt);
        var userInterval = new Option<double?>("--user-interval")
        {
            Description = "users: each user sends a request every N seconds (constant pacing; default: back to back), its first after a random share of one interval",
            HelpName = "N", CustomParser = r => ValueParsers.PositiveNumber(r),
        };
        var warmup = IntOption("--warmup", "Requests per user in each of a cell's two warm-up passes (one with --quick), excluded", 2, ValueParsers.NonNegativeInt);
        var warmupTotal = IntOption("--warmup-total", "... and at least this many in all per pass", 50, ValueParsers.NonNegativeInt);
        var pacedWarmup = IntOption("--paced-warmup", "Paced study: back-to-back requests before the paced ones, in each of two warm-up passes (one with --quick)", 50, ValueParsers.NonNegativeInt);
        var rate = NumberOption("--rate", "Paced study: requests per second", 2);
        var count = IntOption("--count", "Paced study: requests per cell", 20, ValueParsers.PositiveInt);
        var timeout = NumberOption("--timeout", "Timeout or deadline of every request, in seconds", 30);
        var usersPerConnection = IntOption("--users-per-connection", "Users sharing one HTTP/2 connection (HTTP/1.1 gets one per user)", 10, ValueParsers.PositiveInt);
        var quick = new Option<bool>("--quick")
        {
            Description = "Small and bounded (CI): users 1,4 × 10 requests on search-11, search-111, create (warm-up 10); paced 5/s × 10 on clone-hello; " +
                          "rate 20,40,80/s on search-11 (steps of 1 s, up to 4 s for 200 requests); timeout 10 s; no wait for quiet after a warm-up; options given explicitly win",
        };
        var engine = new Option<UserEngine>("--engine")
        {
            Description = "users: who drives the virtual users: dotnet (this process) or locust (Locust's master and workers, tools/stacks/locust/)",
            HelpName = "dotnet|locust",
            CustomParser = r => r.Tokens[0].Value switch
            {
                "dotnet" => UserEngine.Dotnet,
                "locust" => UserEngine.Locust,
                var other => Error(r, $"'{other}' is not an engine: dotnet or locust.", UserEngine.Dotnet),
            },
        };
        var locustWorkers = new Option<IReadOnlyList<string>?>("--locust-workers")
        {
            Description = "--engine locust: N workers started on this machine (default: one per core the driver may use), or HOST,… to wait for " +
                          "one worker on each host, started there with the command this one prints (docs/load-studies.md, \"Workers on other machines\")",
            HelpName = "N|HOST,…",
            CustomParser = r => ValueParsers.Parse(r, v => v.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries) is { Length: > 0 } items
                ? items
                : throw new FormatException("is an empty list")),
        };
        var locustPort = new Option<int?>("--locust-port")
        {
            Description = $"--locust-workers HOST,…: the port the master listens on for them (default {LocustPlan.DefaultPort}, Locust's; 0: any free port, which the command prints)",
            HelpName = "PORT",
            CustomParser = r => ValueParsers.Parse(r, v => int.TryParse(v, CultureInfo.InvariantCulture, out var port) && port is >= 0 and <= 65535
                ? port
                : throw new FormatException("is not a port (0 to 65535)")),
        };
        var failOnErrors = new Option<bool>("--fail-on-errors") { Description = "Exit 1 if any request failed or timed out" };
        var keepCreated = new Option<bool>("--keep-created") { Description = "Keep the authors the create scenario made (default: deleted after the check)" };
        var rates = new Option<IReadOnlyList<double>>("--rates")
        {
            Description = "rate: offered requests per second, in turn, until one is beyond the bound",
            HelpName = "LIST", DefaultValueFactory = _ => LoadTestOptions.DefaultRates,
            CustomParser = r => ValueParsers.List(r, v => double.TryParse(v, System.Globalization.CultureInfo.InvariantCulture, out var n) && n > 0
                ? n
                : throw new FormatException($"'{v}' is not a positive rate")),
        };
        var stepSeconds = NumberOption("--step-seconds", "rate: seconds each offered rate is sent for (longer where 200 requests take longer, up to 4×)", 3);
        var p99Bound = NumberOption("--p99-bound", "rate and users: a rate or a step of users is within the bound when no request fails and p99 ≤ this many ms", 100);
        var duration = NumberOption("--duration", "driver-check: seconds per measurement", 10);
        var checkUsers = IntOption("--check-users", "driver-check: concurrency", 50, ValueParsers.PositiveInt);
        var checkRounds = IntOption("--check-rounds", "driver-check: alternating rounds of ours and the tool's", 3, ValueParsers.PositiveInt);
        var checkRate = NumberOption("--check-rate", "driver-check: requests per second at which latency is compared with hey and h2load", 50);

        var root = CommonOptions.Root(
            "ProtocolBench load studies: virtual users (Śliwa & Pańczyk) and a paced stream (Bolanowski), on every protocol.\n\n" +
            "  dotnet run -c Release --project loadtests -- [mode] [options]\n\n" +
            "Exit codes (both commands): 0 done; 1 a check failed (tally, nothing lost, --fail-on-errors); 2 bad options;\n" +
            "3 a service would not start or died; 130 Ctrl+C; 143 SIGTERM (partial results are written first).");
        root.Arguments.Add(mode);
        common.AddTo(root);
        foreach (var option in new Option[]
                 {
                     protocols, transports, scenarios, users, requests, userInterval, warmup, warmupTotal, pacedWarmup, rate, count, timeout, usersPerConnection,
                     quick, engine, locustWorkers, locustPort, failOnErrors, keepCreated, rates, stepSeconds, p99Bound, duration, checkUsers, checkRounds, checkRate,
                 })
        {
            root.Options.Add(option);
        }

        if (CommonOptions.Parse(root, args, out var result) is { } exit)
        {
            return (null, exit);
        }

        try
        {
            // With --quick an option keeps its --quick value unless it was given on the command line.
            var isQuick = result.GetValue(quick);
            T Pick<T>(Option<T> option, T quickValue) => isQuick && !result.IsGiven(option) ? quickValue : result.GetValue(option)!;

            // With --as a paper's study, scenarios, protocols and pacing, unless given on the command line.
            var preset = result.GetValue(common.As);
            var chosenMode = preset is not null && !result.IsGiven(mode) ? (preset.Paced ? Mode.Paced : Mode.Users) : result.GetValue(mode);
            common.CallsThroughStacks = chosenMode == Mode.Paced;
            var settings = common.Read(result);
            var given = result.GetValue(scenarios) ?? (preset is null ? null : LoadTestOptions.ScenariosNamed([.. preset.Scenarios]));
            var options = new LoadTestOptions
            {
                Common = settings,
                Mode = chosenMode,
                Protocols = preset is not null && !result.IsGiven(protocols) ? preset.Protocols
                    : chosenMode == Mode.Rate && !result.IsGiven(protocols) ? LoadTestOptions.DefaultRateProtocols
                    : result.GetValue(protocols)!,
                Transports = result.GetValue(transports)!,
                Users = Pick(users, [1, 4]),
                Requests = Pick(requests, 10),
                UserInterval = result.GetValue(userInterval) is { } seconds ? TimeSpan.FromSeconds(seconds) : null,
                WarmupPerUser = Pick(warmup, 1),
                WarmupTotal = Pick(warmupTotal, 10),
                UserScenarios = given ?? (isQuick ? LoadTestOptions.ScenariosNamed("search-11", "search-111", "create") : LoadTestOptions.DefaultUserScenarios),
                PacedScenarios = given ?? (isQuick ? LoadTestOptions.ScenariosNamed("clone-hello") : LoadTestOptions.DefaultPacedScenarios),
                Rate = preset?.Pacing is { } pacing && !isQuick && !result.IsGiven(rate) ? pacing.Rate : Pick(rate, 5),
                Count = preset?.Pacing is { } paced && !isQuick && !result.IsGiven(count) ? paced.Count : Pick(count, 10),
                PacedWarmup = Pick(pacedWarmup, 5),
                // An open-loop step past saturation queues requests: a shorter timeout keeps it bounded.
                Timeout = TimeSpan.FromSeconds(chosenMode == Mode.Rate && !result.IsGiven(timeout) ? 5 : Pick(timeout, 10)),
                Rates = Pick(rates, [20, 40, 80]),
                StepDuration = TimeSpan.FromSeconds(Pick(stepSeconds, 1)),
                P99Bound = TimeSpan.FromMilliseconds(result.GetValue(p99Bound)),
                RateScenarios = given ?? (isQuick ? LoadTestOptions.ScenariosNamed("search-11") : LoadTestOptions.DefaultUserScenarios),
                UsersPerHttp2Connection = preset?.UsersPerHttp2Connection is { } shared && !result.IsGiven(usersPerConnection)
                    ? shared
                    : result.GetValue(usersPerConnection),
                Quick = isQuick,
                FailOnErrors = result.GetValue(failOnErrors),
                KeepCreated = result.GetValue(keepCreated),
                Duration = TimeSpan.FromSeconds(Pick(duration, 3)),
                CheckUsers = Pick(checkUsers, 10),
                CheckRounds = Pick(checkRounds, 1),
                CheckRate = Pick(checkRate, 20),
            };
            if (result.GetValue(engine) != UserEngine.Locust && (result.IsGiven(locustWorkers) || result.IsGiven(locustPort)))
            {
                throw new UsageException("--locust-workers and --locust-port go with --engine locust.");
            }

            if (options.UserInterval is not null && !options.RunsUsers)
            {
                throw new UsageException("--user-interval paces the virtual users: the modes users and all.");
            }

            if (result.GetValue(engine) == UserEngine.Locust)
            {
                var (versions, plan) = Locust(result.GetValue(locustWorkers), result.GetValue(locustPort), chosenMode, settings);
                // Remote workers reach the services started here where they reach the master.
                var addresses = plan.Remote && settings.External is null ? settings.Addresses with { Host = plan.Address } : settings.Addresses;
                options = options with { Common = settings with { Addresses = addresses }, Engine = UserEngine.Locust, Locust = plan, LocustVersions = versions };
            }

            if (chosenMode == Mode.DriverCheck && given is not null)
            {
                options = options with { CheckScenario = given.Count == 1 ? given[0] : throw new UsageException("driver-check takes one scenario.") };
            }

            if (chosenMode == Mode.DriverCheck && options.CheckScenario.Phrase is null)
            {
                throw new UsageException("driver-check measures a search scenario (search-3112, search-111 or search-11).");
            }

            if (chosenMode == Mode.DriverCheck && options.Common.Conditions.Connections == ConnectionPolicy.New)
            {
                throw new UsageException("driver-check compares with wrk and h2load on warm connections (h2load cannot open one per request): leave out --connections new.");
            }

            return (options, ExitCodes.Ok);
        }
        catch (UsageException e)
        {
            Console.Error.WriteLine(e.Message);
            return (null, ExitCodes.BadUsage);
        }
    }

    /// <summary>
    /// --engine locust's workers: as many as asked on this machine (by default one per core the driver may use), or one on
    /// each host named; refused where it cannot run as asked (another mode, HTTP/2, a stack that is not installed: the install line).
    /// </summary>
    private static (string Versions, LocustPlan Plan) Locust(IReadOnlyList<string>? workers, int? port, Mode mode, CommonSettings settings)
    {
        if (mode is not (Mode.Users or Mode.All))
        {
            throw new UsageException("--engine locust drives the virtual-user study: the modes users and all.");
        }

        if (settings.Http2)
        {
            throw new UsageException("--engine locust sends REST and GraphQL over HTTP/1.1 (Python's http.client): leave out --http2.");
        }

        var (versions, missing) = LocustStack.Probe();
        if (versions is null)
        {
            throw new UsageException(missing!);
        }

        int? local = workers is null ? (settings.Pinning.ClientCpus is { } cpus ? Pinning.Count(cpus) : Environment.ProcessorCount)
            : workers.Count == 1 && int.TryParse(workers[0], CultureInfo.InvariantCulture, out var asked) ? asked
            : null;
        if (local is { } count)
        {
            if (count < 1)
            {
                throw new UsageException("--locust-workers: start at least one worker.");
            }

            return port is null
                ? (versions, LocustPlan.Local(count))
                : throw new UsageException("--locust-port goes with workers on other hosts (--locust-workers HOST,…).");
        }

        if (!settings.Conditions.Network.IsLoopback)
        {
            throw new UsageException("--network shapes the link to services in a namespace of their own, which workers on other hosts do not reach: leave out one of them.");
        }

        return (versions, LocustPlan.OnHosts(workers!, port ?? LocustPlan.DefaultPort));
    }

    private static Option<int> IntOption(string name, string description, int value, Func<System.CommandLine.Parsing.ArgumentResult, int> parse) =>
        new(name) { Description = description, HelpName = "N", DefaultValueFactory = _ => value, CustomParser = r => parse(r) };

    private static Option<double> NumberOption(string name, string description, double value) =>
        new(name) { Description = description, HelpName = "N", DefaultValueFactory = _ => value, CustomParser = ValueParsers.PositiveNumber };

    private static T Error<T>(System.CommandLine.Parsing.ArgumentResult result, string message, T fallback)
    {
        result.AddError(message);
        return fallback;
    }
}
