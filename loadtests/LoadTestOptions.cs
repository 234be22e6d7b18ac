using System.Globalization;
using ProtocolBench.Lab;
using ProtocolBench.Shared.Clients;
using ProtocolBench.Shared.Domain.Data;

namespace ProtocolBench.LoadTests;

public enum Mode
{
    Users,
    Paced,
    All,
    DriverCheck,
    Help,
}

/// <summary>Everything the command line can set. Defaults are the papers' setups (docs/methodology.md); --quick is a bounded CI version.</summary>
public sealed record LoadTestOptions
{
    public static readonly IReadOnlyList<string> DefaultUserScenarios = ["search-3112", "search-111", "search-11", "create"];
    public static readonly IReadOnlyList<string> DefaultPacedScenarios = ["clone-hello", "pdf"];

    public Mode Mode { get; init; } = Mode.Users;

    public IReadOnlyList<Protocol> Protocols { get; init; } = [Protocol.Rest, Protocol.Grpc, Protocol.GraphQL];

    public IReadOnlyList<Transport> Transports { get; init; } = [Transport.Http, Transport.Https];

    public IReadOnlyList<int> Users { get; init; } = [1, 10, 50];

    /// <summary>Requests each virtual user sends back to back, after its warm-up.</summary>
    public int Requests { get; init; } = 50;

    /// <summary>Requests each virtual user sends before measuring starts (opens its connection); excluded.</summary>
    public int WarmupPerUser { get; init; } = 2;

    /// <summary>At least this many warm-up requests per cell in all (spread over the users), so one user also finds the service's code compiled at full tier.</summary>
    public int WarmupTotal { get; init; } = 50;

    public IReadOnlyList<string> UserScenarios { get; init; } = DefaultUserScenarios;

    public IReadOnlyList<string> PacedScenarios { get; init; } = DefaultPacedScenarios;

    /// <summary>Paced study: requests per second and how many.</summary>
    public double Rate { get; init; } = 2;

    public int Count { get; init; } = 20;

    public int PacedWarmup { get; init; } = 50;

    /// <summary>Timeout (HTTP) or deadline (gRPC) of every request.</summary>
    public TimeSpan Timeout { get; init; } = TimeSpan.FromSeconds(30);

    /// <summary>Virtual users sharing one HTTP/2 connection (gRPC, and REST/GraphQL with --http2): 50 users open 5 connections.</summary>
    public int UsersPerHttp2Connection { get; init; } = 10;

    public bool Http2ForRestAndGraphQL { get; init; }

    /// <summary>Host of services already running (their default ports unless --ports); null: start them.</summary>
    public string? External { get; init; }

    public ServiceAddresses? Ports { get; init; }

    public DatabaseProvider Database { get; init; } = DatabaseProvider.Sqlite;

    public bool DatabaseGiven { get; init; }

    public string? ConnectionString { get; init; }

    public string? ResultsDirectory { get; init; }

    public bool Quick { get; init; }

    /// <summary>CPU lists for taskset; null: automatic (driver 0, servers the rest) on two or more cores.</summary>
    public string? ServerCpus { get; init; }

    public string? DriverCpus { get; init; }

    public bool NoPin { get; init; }

    public bool FailOnErrors { get; init; }

    public bool KeepCreated { get; init; }

    /// <summary>Driver check: how long each tool and our driver run, at how many users, on which search.</summary>
    public TimeSpan Duration { get; init; } = TimeSpan.FromSeconds(10);

    public int CheckUsers { get; init; } = 50;

    public int Rounds { get; init; } = 3;

    public string CheckScenario { get; init; } = "search-11";

    public bool RunsUsers => Mode is Mode.Users or Mode.All;

    public bool RunsPaced => Mode is Mode.Paced or Mode.All;

    public static LoadTestOptions Parse(string[] args)
    {
        var options = new LoadTestOptions();
        var rest = new Queue<string>(args);
        if (rest.TryPeek(out var first) && !first.StartsWith('-'))
        {
            rest.Dequeue();
            options = options with
            {
                Mode = first switch
                {
                    "users" => Mode.Users,
                    "paced" => Mode.Paced,
                    "all" => Mode.All,
                    "driver-check" => Mode.DriverCheck,
                    "help" => Mode.Help,
                    _ => throw new UsageException($"Unknown mode '{first}'. Modes: users, paced, all, driver-check."),
                },
            };
        }

        var given = new HashSet<string>();
        IReadOnlyList<string>? scenarios = null;
        while (rest.Count > 0)
        {
            var option = rest.Dequeue();
            var name = option.Split('=', 2)[0];
            string Value()
            {
                if (option.Contains('='))
                {
                    return option.Split('=', 2)[1];
                }

                return rest.Count > 0 ? rest.Dequeue() : throw new UsageException($"{name} needs a value.");
            }

            given.Add(name);
            options = name switch
            {
                "-h" or "--help" or "-?" => options with { Mode = Mode.Help },
                "--protocols" => options with { Protocols = List(Value(), ParseProtocol) },
                "--transports" => options with { Transports = List(Value(), ParseTransport) },
                "--users" => options with { Users = List(Value(), v => Positive(name, v)) },
                "--requests" => options with { Requests = Positive(name, Value()) },
                "--warmup" => options with { WarmupPerUser = NonNegative(name, Value()) },
                "--warmup-total" => options with { WarmupTotal = NonNegative(name, Value()) },
                "--paced-warmup" => options with { PacedWarmup = NonNegative(name, Value()) },
                "--rate" => options with { Rate = PositiveDouble(name, Value()) },
                "--count" => options with { Count = Positive(name, Value()) },
                "--timeout" => options with { Timeout = TimeSpan.FromSeconds(PositiveDouble(name, Value())) },
                "--users-per-connection" => options with { UsersPerHttp2Connection = Positive(name, Value()) },
                "--http2" => options with { Http2ForRestAndGraphQL = true },
                "--external" => options with { External = Value() },
                "--ports" => options with { Ports = ParsePorts(Value()) },
                "--database" => options with { Database = ParseDatabase(Value()), DatabaseGiven = true },
                "--connection-string" => options with { ConnectionString = Value() },
                "--results" => options with { ResultsDirectory = Value() },
                "--quick" => options with { Quick = true },
                "--server-cpus" => options with { ServerCpus = Value() },
                "--driver-cpus" => options with { DriverCpus = Value() },
                "--no-pin" => options with { NoPin = true },
                "--fail-on-errors" => options with { FailOnErrors = true },
                "--keep-created" => options with { KeepCreated = true },
                "--duration" => options with { Duration = TimeSpan.FromSeconds(PositiveDouble(name, Value())) },
                "--check-users" => options with { CheckUsers = Positive(name, Value()) },
                "--rounds" => options with { Rounds = Positive(name, Value()) },
                "--scenarios" => SetScenarios(options, scenarios = List(Value(), s => s.Trim())),
                _ => throw new UsageException($"Unknown option '{option}'. See --help."),
            };
        }

        if (options.Quick)
        {
            options = options with
            {
                Users = given.Contains("--users") ? options.Users : [1, 4],
                Requests = given.Contains("--requests") ? options.Requests : 10,
                WarmupPerUser = given.Contains("--warmup") ? options.WarmupPerUser : 1,
                WarmupTotal = given.Contains("--warmup-total") ? options.WarmupTotal : 10,
                UserScenarios = scenarios ?? ["search-11", "search-111", "create"],
                PacedScenarios = scenarios ?? ["clone-hello"],
                Rate = given.Contains("--rate") ? options.Rate : 5,
                Count = given.Contains("--count") ? options.Count : 10,
                PacedWarmup = given.Contains("--paced-warmup") ? options.PacedWarmup : 5,
                Timeout = given.Contains("--timeout") ? options.Timeout : TimeSpan.FromSeconds(10),
                Duration = given.Contains("--duration") ? options.Duration : TimeSpan.FromSeconds(3),
                CheckUsers = given.Contains("--check-users") ? options.CheckUsers : 10,
                Rounds = given.Contains("--rounds") ? options.Rounds : 1,
            };
        }

        if (options.Database == DatabaseProvider.PostgreSQL && string.IsNullOrWhiteSpace(options.ConnectionString))
        {
            throw new UsageException(
                "--database postgres needs --connection-string, e.g. " +
                "\"Host=127.0.0.1;Username=postgres;Password=...;Database=protocolbench_loadtests\".");
        }

        foreach (var scenario in options.UserScenarios.Concat(options.PacedScenarios).Append(options.CheckScenario))
        {
            _ = Scenarios.Named(scenario);
        }

        if (options.Mode == Mode.DriverCheck && !options.CheckScenario.StartsWith("search-", StringComparison.Ordinal))
        {
            throw new UsageException("driver-check measures a search scenario (search-3112, search-111 or search-11).");
        }

        return options;
    }

    private static LoadTestOptions SetScenarios(LoadTestOptions options, IReadOnlyList<string> scenarios) => options.Mode switch
    {
        Mode.Paced => options with { PacedScenarios = scenarios },
        Mode.DriverCheck => options with { CheckScenario = scenarios.Count == 1 ? scenarios[0] : throw new UsageException("driver-check takes one scenario.") },
        Mode.All => options with { UserScenarios = scenarios, PacedScenarios = scenarios },
        _ => options with { UserScenarios = scenarios },
    };

    private static IReadOnlyList<T> List<T>(string value, Func<string, T> parse)
    {
        var items = value.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).Select(parse).Distinct().ToList();
        return items.Count > 0 ? items : throw new UsageException($"Empty list '{value}'.");
    }

    private static int Positive(string name, string value) =>
        int.TryParse(value, NumberStyles.Integer, CultureInfo.InvariantCulture, out var n) && n > 0
            ? n
            : throw new UsageException($"{name} must be a positive whole number (was '{value}').");

    private static int NonNegative(string name, string value) =>
        int.TryParse(value, NumberStyles.Integer, CultureInfo.InvariantCulture, out var n) && n >= 0
            ? n
            : throw new UsageException($"{name} must be 0 or more (was '{value}').");

    private static double PositiveDouble(string name, string value) =>
        double.TryParse(value, NumberStyles.Float, CultureInfo.InvariantCulture, out var n) && n > 0 && double.IsFinite(n)
            ? n
            : throw new UsageException($"{name} must be a positive number (was '{value}').");

    private static Protocol ParseProtocol(string value) => value.ToLowerInvariant() switch
    {
        "rest" => Protocol.Rest,
        "grpc" => Protocol.Grpc,
        "graphql" => Protocol.GraphQL,
        _ => throw new UsageException($"Unknown protocol '{value}': rest, grpc or graphql."),
    };

    private static Transport ParseTransport(string value) => value.ToLowerInvariant() switch
    {
        "http" => Transport.Http,
        "https" => Transport.Https,
        _ => throw new UsageException($"Unknown transport '{value}': http or https."),
    };

    private static DatabaseProvider ParseDatabase(string value) => value.ToLowerInvariant() switch
    {
        "sqlite" => DatabaseProvider.Sqlite,
        "postgres" or "postgresql" => DatabaseProvider.PostgreSQL,
        _ => throw new UsageException($"Unknown database '{value}': sqlite or postgres."),
    };

    private static ServiceAddresses ParsePorts(string value)
    {
        try
        {
            return ServiceAddresses.ParsePorts(value);
        }
        catch (FormatException e)
        {
            throw new UsageException(e.Message);
        }
    }

    public const string Help = """
        ProtocolBench load studies: virtual users (Śliwa & Pańczyk) and a paced stream (Bolanowski), on every protocol.

        Usage: dotnet run -c Release --project loadtests -- [mode] [options]

        Modes
          users          (default) virtual users, each sending --requests requests back to back, no think time
          paced          a fixed rate of single requests, each timed by Stopwatch: timeline chart and median
          all            users, then paced, on one start of the services (what CI runs with --quick)
          driver-check   our driver against wrk (REST, HTTP/1.1) and h2load (gRPC, h2c) on the same endpoint
                         and concurrency; reports both throughputs and the ratio

        What is measured
          --protocols LIST         rest,grpc,graphql (default all)
          --transports LIST        http,https (default both)
          --scenarios LIST         users default: search-3112,search-111,search-11,create
                                   paced default: clone-hello,pdf
                                   also: clone-lorem, int-max, ints, sample, text-file, pdf-raw, or I..VII
                                   (the Bolanowski scenarios); in `all` the list applies to both studies
          --users LIST             virtual users per cell (default 1,10,50)
          --requests N             requests per user (default 50)
          --warmup N               requests per user before measuring, excluded (default 2) ...
          --warmup-total N         ... and at least N in all per cell (default 50)
          --paced-warmup N         paced study: back-to-back requests before the paced ones (default 50)
          --rate R --count N       paced study: R requests/s, N requests per cell (default 2 and 20)
          --timeout S              timeout/deadline of every request in seconds (default 30)
          --users-per-connection N users sharing one HTTP/2 connection (default 10; HTTP/1.1 gets one per user)
          --http2                  REST and GraphQL over HTTP/2 on HTTPS (default HTTP/1.1, as the paper)
          --duration S             driver-check: seconds per measurement (default 10)
          --check-users N          driver-check: concurrency (default 50)
          --rounds N               driver-check: alternating rounds of ours and the tool's (default 3)

        Where
          --external HOST          services already running on HOST (default: start them, Release build)
          --ports P1,..,P6         REST http,https, gRPC http,https, GraphQL http,https (default 5100,...,5301)
          --database sqlite|postgres   database of the started services, and the one checked after creates
          --connection-string S    SQLite "Data Source=..." or an Npgsql connection string (required for postgres);
                                   default SQLite: protocolbench-loadtests.db beside the benchmark's database
          --results DIR            default results/loadtests-<timestamp> under the repository
          --server-cpus LIST       taskset CPU list for the services (default 1 on two cores, 1-(n-1) on more)
          --driver-cpus LIST       CPU list for this driver (default 0)
          --no-pin                 no pinning

        Run control
          --quick                  small and bounded (CI): users 1,4 × 10 requests on search-11, search-111, create
                                   (warm-up 10); paced 5/s × 10 on clone-hello; timeout 10 s; explicit options win
          --fail-on-errors         exit 1 if any request failed or timed out
          --keep-created           keep the authors the create scenario made (default: deleted after the check)

        Exit codes: 0 done; 1 a check failed (books, nothing lost, --fail-on-errors); 2 bad usage;
                    3 a service failed to start or died; 130 interrupted (Ctrl+C, SIGTERM; partial results kept)
        """;
}

public sealed class UsageException(string message) : Exception(message);
