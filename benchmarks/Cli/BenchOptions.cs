using ProtocolBench.Shared.Clients;
using ProtocolBench.Shared.Domain.Data;

namespace ProtocolBench.Benchmarks.Cli;

public enum JobKind
{
    Default,
    Short,
    Medium,
    Long,
    Smoke,
}

/// <summary>
/// ProtocolBench's own options. Everything it does not know goes to BenchmarkDotNet unchanged (--filter, --list,
/// --iterationCount, --anyCategories, ...), so BenchmarkDotNet's documentation applies to the rest.
/// </summary>
public sealed record BenchOptions
{
    public bool Help { get; init; }

    public bool Smoke { get; init; }

    public JobKind Job { get; init; } = JobKind.Default;

    public string? ExternalHost { get; init; }

    public string? TlsHost { get; init; }

    /// <summary>The six service ports (--ports); null: 5100/5101, 5200/5201, 5300/5301.</summary>
    public ServiceAddresses? Ports { get; init; }

    public DatabaseProvider Database { get; init; } = DatabaseProvider.Sqlite;

    public string? ConnectionString { get; init; }

    public string? ResultsDirectory { get; init; }

    public bool NoPin { get; init; }

    public bool MakeCertificate { get; init; }

    public bool ForceCertificate { get; init; }

    public bool Http2 { get; init; }

    public bool Verbose { get; init; }

    /// <summary>The arguments for BenchmarkSwitcher, in the order given.</summary>
    public IReadOnlyList<string> BenchmarkDotNetArgs { get; init; } = [];

    public bool HasFilter => BenchmarkDotNetArgs.Any(a =>
        a is "--filter" or "-f" or "--anyCategories" or "--allCategories" or "--attribute" || a.StartsWith("--filter=", StringComparison.Ordinal));

    /// <summary>BenchmarkDotNet requests that print something and run nothing: no services needed.</summary>
    public bool IsInformationOnly => BenchmarkDotNetArgs.Any(a => a is "--list" or "--version" or "--info" or "-?" || a.StartsWith("--list", StringComparison.Ordinal));

    public static BenchOptions Parse(IReadOnlyList<string> args)
    {
        var options = new BenchOptions();
        var rest = new List<string>();
        for (var i = 0; i < args.Count; i++)
        {
            var arg = args[i];
            string Value()
            {
                if (i + 1 >= args.Count || args[i + 1].StartsWith("--", StringComparison.Ordinal))
                {
                    throw new ArgumentException($"{arg} needs a value. See --help.");
                }

                return args[++i];
            }

            switch (arg)
            {
                case "--":
                    break;
                case "--help" or "-h":
                    options = options with { Help = true };
                    break;
                case "--smoke":
                    options = options with { Smoke = true, Job = JobKind.Smoke };
                    break;
                case "--job" or "-j":
                    options = options with { Job = ParseJob(Value()) };
                    break;
                case "--external":
                    options = options with { ExternalHost = Value() };
                    break;
                case "--tls-host":
                    options = options with { TlsHost = Value() };
                    break;
                case "--ports":
                    try
                    {
                        options = options with { Ports = ServiceAddresses.ParsePorts(Value()) };
                    }
                    catch (FormatException e)
                    {
                        throw new ArgumentException(e.Message, e);
                    }

                    break;
                case "--database":
                    options = options with { Database = ParseDatabase(Value()) };
                    break;
                case "--connection-string":
                    options = options with { ConnectionString = Value() };
                    break;
                case "--results":
                    options = options with { ResultsDirectory = Value() };
                    break;
                case "--no-pin":
                    options = options with { NoPin = true };
                    break;
                case "--make-cert":
                    options = options with { MakeCertificate = true };
                    break;
                case "--force":
                    options = options with { ForceCertificate = true };
                    break;
                case "--http2":
                    options = options with { Http2 = true };
                    break;
                case "--verbose":
                    options = options with { Verbose = true };
                    break;
                default:
                    rest.Add(arg);
                    break;
            }
        }

        if (options.ConnectionString is not null && !args.Contains("--database"))
        {
            // A connection string alone means PostgreSQL; SQLite needs none (its file is the default one).
            options = options with { Database = DatabaseProvider.PostgreSQL };
        }

        if (options.Database == DatabaseProvider.PostgreSQL && string.IsNullOrWhiteSpace(options.ConnectionString))
        {
            throw new ArgumentException("--database postgres needs --connection-string \"Host=...;Username=...;Password=...;Database=protocolbench\".");
        }

        if (options.ExternalHost is not null && (options.ConnectionString is not null || args.Contains("--database")))
        {
            throw new ArgumentException("--external uses services that are already running: their database is chosen where they run, not here.");
        }

        return options with { BenchmarkDotNetArgs = rest };
    }

    private static JobKind ParseJob(string value) => value.ToLowerInvariant() switch
    {
        "default" => JobKind.Default,
        "short" or "shortrun" => JobKind.Short,
        "medium" or "mediumrun" => JobKind.Medium,
        "long" or "longrun" => JobKind.Long,
        "dry" or "smoke" => JobKind.Smoke,
        _ => throw new ArgumentException($"--job {value}: expected default, short, medium, long or dry."),
    };

    private static DatabaseProvider ParseDatabase(string value) => value.ToLowerInvariant() switch
    {
        "sqlite" => DatabaseProvider.Sqlite,
        "postgres" or "postgresql" or "pg" => DatabaseProvider.PostgreSQL,
        _ => throw new ArgumentException($"--database {value}: expected sqlite or postgres."),
    };

    public const string HelpText =
        """
        ProtocolBench benchmarks: REST, gRPC and GraphQL over HTTP and HTTPS, measured with BenchmarkDotNet.

        Usage:
          dotnet run -c Release --project benchmarks [-- options]

        With no options it makes the HTTPS certificate if missing, starts the three services (Release, SQLite),
        measures every operation on every protocol and transport (the default job, stable medians, about 15 minutes
        on 2 cores), writes the reports and stops the services.

        Options:
          --job default|short|medium|long|dry
                                   default: 3 warm-ups, 15 iterations of ~250 ms per cell (stable medians).
                                   short:   BenchmarkDotNet's ShortRun (3 + 3 iterations) at 200 ms per iteration.
                                   medium/long: BenchmarkDotNet's presets. dry: every cell once.
          --smoke                  Every cell once (dry job), then fail unless every report and every cell is present.
                                   For CI.
          --filter GLOB            BenchmarkDotNet's filter on the class and the parameters, e.g. '*Payloads*' or
                                   '*int-max*' (scenario names as in docs/methodology.md). Classes: Baseline,
                                   Payloads, Files, BinaryFiles, Authors. Quote the glob.
          --results DIR            Where the reports go. Default: results/benchmarks-<yyyyMMdd-HHmmss> in the repository.
          --database sqlite|postgres
                                   Database of the started services. Default sqlite (an embedded file, seeded on first use).
          --connection-string CS   Connection string for --database (PostgreSQL when given alone).
          --external HOST          Do not start services: measure the ones already running on HOST (ports: --ports).
                                   HTTPS needs a certificate whose names include HOST (or --tls-host).
          --tls-host NAME          Host name used for HTTPS with --external (default: HOST).
          --ports P1,...,P6        The services' ports: REST http,https, gRPC http,https, GraphQL http,https
                                   (default 5100,5101,5200,5201,5300,5301); for started and --external services.
          --http2                  REST and GraphQL over HTTPS use h2 (ALPN) instead of HTTP/1.1, as gRPC does.
          --no-pin                 Do not pin: by default, with 2+ cores, this process runs on core 0 and the services on
                                   the other cores (taskset).
          --make-cert [--force]    Only make the HTTPS certificate (certs/protocolbench.pfx and .crt) and exit.
          --verbose                Show BenchmarkDotNet's own output on the console (it is always in the log file).
          --help                   This text, then BenchmarkDotNet's own options.

        Any other option goes to BenchmarkDotNet: --list flat, --iterationCount N, --warmupCount N, --iterationTime MS,
        --anyCategories, --stopOnFirstError, ... See BenchmarkDotNet's options below.

        Reports (in the results folder):
          summary.md, summary.html     our medians beside the paper's, winners and significance, verdicts, bytes on
                                       the wire, environment, a bar chart
          results/*-report.html|.csv|-github.md|-full.json   BenchmarkDotNet's reports, one set per class
          *.log                        BenchmarkDotNet's full log

        Exit codes: 0 all cells measured; 1 a cell failed or a report is missing; 2 bad options; 3 a service would not
        start or died; 130 Ctrl+C; 143 SIGTERM (partial results are written first).
        """;
}
