namespace ProtocolBench.LoadTests.Studies;

/// <summary>
/// Everything the command line can set (System.CommandLine; the options shared with the benchmark command come from
/// the harness). Defaults are the papers' setups (docs/methodology.md); --quick is a bounded CI version.
/// </summary>
public sealed record LoadTestOptions
{
    public static readonly IReadOnlyList<Scenario> DefaultUserScenarios = ScenariosNamed("search-3112", "search-111", "search-11", "create");
    public static readonly IReadOnlyList<Scenario> DefaultPacedScenarios = ScenariosNamed("clone-hello", "pdf");

    public required CommonSettings Common { get; init; }

    public Mode Mode { get; init; } = Mode.Users;

    public IReadOnlyList<Protocol> Protocols { get; init; } = Display.Protocols;

    public IReadOnlyList<Transport> Transports { get; init; } = Display.Transports;

    public IReadOnlyList<int> Users { get; init; } = [1, 10, 50];

    /// <summary>Requests each virtual user sends back to back (or one every <see cref="UserInterval"/>), after its warm-up.</summary>
    public int Requests { get; init; } = 50;

    /// <summary>--user-interval: each virtual user's time from one measured request's start to the next's; null: back to back.</summary>
    public TimeSpan? UserInterval { get; init; }

    /// <summary>Requests each virtual user sends before measuring starts (opens its connection); excluded.</summary>
    public int WarmupPerUser { get; init; } = 2;

    /// <summary>At least this many warm-up requests per cell in all (spread over the users), so one user also finds the service's code compiled at full tier.</summary>
    public int WarmupTotal { get; init; } = 50;

    public IReadOnlyList<Scenario> UserScenarios { get; init; } = DefaultUserScenarios;

    /// <summary>Who drives the virtual users: this process (the default) or Locust's master and workers (<see cref="LocustUsers"/>).</summary>
    public UserEngine Engine { get; init; } = UserEngine.Dotnet;

    /// <summary>--engine locust: where its workers run (--locust-workers, --locust-port).</summary>
    public LocustPlan Locust { get; init; } = LocustPlan.Local(1);

    /// <summary>--engine locust: the stack's versions, as its master says them.</summary>
    public string? LocustVersions { get; init; }

    public IReadOnlyList<Scenario> PacedScenarios { get; init; } = DefaultPacedScenarios;

    /// <summary>Paced study: requests per second and how many.</summary>
    public double Rate { get; init; } = 2;

    public int Count { get; init; } = 20;

    public int PacedWarmup { get; init; } = 50;

    /// <summary>Timeout (HTTP) or deadline (gRPC) of every request.</summary>
    public TimeSpan Timeout { get; init; } = TimeSpan.FromSeconds(30);

    /// <summary>Virtual users sharing one HTTP/2 connection (gRPC, and REST/GraphQL with --http2): 50 users open 5 connections.</summary>
    public int UsersPerHttp2Connection { get; init; } = 10;

    public bool Http2ForRestAndGraphQL => Common.Http2;

    public bool Quick { get; init; }

    public bool FailOnErrors { get; init; }

    public bool KeepCreated { get; init; }

    /// <summary>Driver check: how long each tool and our driver run, at how many users, on which search.</summary>
    public TimeSpan Duration { get; init; } = TimeSpan.FromSeconds(10);

    public int CheckUsers { get; init; } = 50;

    /// <summary>driver-check: alternating rounds of ours and the tool's.</summary>
    public int CheckRounds { get; init; } = 3;

    public Scenario CheckScenario { get; init; } = Catalogue.Named("search-11");

    /// <summary>driver-check: the fixed rate (requests per second) at which our latency is held against hey's and h2load's.</summary>
    public double CheckRate { get; init; } = 50;

    /// <summary>Rate sweep: the offered rates in turn (requests per second), each for <see cref="StepDuration"/>.</summary>
    public IReadOnlyList<double> Rates { get; init; } = DefaultRates;

    public static readonly IReadOnlyList<double> DefaultRates = [25, 50, 100, 200, 400, 800, 1600];

    public TimeSpan StepDuration { get; init; } = TimeSpan.FromSeconds(3);

    /// <summary>Rate sweep: a step is within the bound when no request failed and its p99 is at most this.</summary>
    public TimeSpan P99Bound { get; init; } = TimeSpan.FromMilliseconds(100);

    /// <summary>Rate sweep: the four Śliwa &amp; Pańczyk scenarios unless --scenarios says otherwise.</summary>
    public IReadOnlyList<Scenario> RateScenarios { get; init; } = DefaultUserScenarios;

    public static readonly IReadOnlyList<Protocol> DefaultRateProtocols = [Protocol.Rest, Protocol.Grpc, Protocol.GraphQL];

    public bool RunsUsers => Mode is Mode.Users or Mode.All;

    public bool RunsPaced => Mode is Mode.Paced or Mode.All;

    /// <summary>Scenarios of the catalogue by name; an unknown name is a bug.</summary>
    public static IReadOnlyList<Scenario> ScenariosNamed(params string[] names) => [.. names.Select(Catalogue.Named)];
}
