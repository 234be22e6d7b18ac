using System.CommandLine;
using ProtocolBench.Lab;
using ProtocolBench.Lab.CommandLine;
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
/// ProtocolBench's own options (System.CommandLine, the shared ones from the harness). Everything it does not know goes
/// to BenchmarkDotNet unchanged (--filter, --list, --iterationCount, ...), so BenchmarkDotNet's documentation applies.
/// </summary>
public sealed record BenchOptions
{
    public required CommonSettings Common { get; init; }

    public bool Smoke { get; init; }

    public JobKind Job { get; init; } = JobKind.Default;

    public bool MakeCertificate { get; init; }

    public bool ForceCertificate { get; init; }

    public bool Verbose { get; init; }

    /// <summary>The arguments for BenchmarkSwitcher, in the order given.</summary>
    public IReadOnlyList<string> BenchmarkDotNetArgs { get; init; } = [];

    public bool HasFilter => BenchmarkDotNetArgs.Any(a =>
        a is "--filter" or "-f" or "--anyCategories" or "--allCategories" or "--attribute" || a.StartsWith("--filter=", StringComparison.Ordinal));

    /// <summary>BenchmarkDotNet requests that print something and run nothing: no services needed.</summary>
    public bool IsInformationOnly => BenchmarkDotNetArgs.Any(a => a is "--list" or "--version" or "--info" || a.StartsWith("--list", StringComparison.Ordinal));

    /// <summary>The options, or the exit code when there is nothing to run (after --help: 0; bad options: 2).</summary>
    public static (BenchOptions? Options, int Exit) Parse(IReadOnlyList<string> args, Action printBenchmarkDotNetHelp)
    {
        var common = new CommonOptions();
        var job = new Option<JobKind>("--job", "-j")
        {
            Description = "default: 3 warm-ups + 15 iterations of ~250 ms per cell (stable medians); short: BenchmarkDotNet's ShortRun " +
                          "(3 + 3) at 200 ms per iteration; medium, long: BenchmarkDotNet's presets; dry: every cell once",
            HelpName = "default|short|medium|long|dry",
            DefaultValueFactory = _ => JobKind.Default,
            CustomParser = result => ParseJob(result.Tokens.Count > 0 ? result.Tokens[0].Value : "", result),
        };
        var smoke = new Option<bool>("--smoke") { Description = "Every cell once (the dry job), then fail unless every cell and every report is there. For CI." };
        var makeCert = new Option<bool>("--make-cert") { Description = "Only make the HTTPS certificate (certs/protocolbench.pfx and .crt) and exit" };
        var force = new Option<bool>("--force") { Description = "With --make-cert: replace an existing certificate" };
        var verbose = new Option<bool>("--verbose") { Description = "Show BenchmarkDotNet's own output on the console (it is always in the log file)" };
        var root = CommonOptions.Root(Description);
        common.AddTo(root);
        foreach (var option in new Option[] { job, smoke, makeCert, force, verbose })
        {
            root.Options.Add(option);
        }

        root.TreatUnmatchedTokensAsErrors = false;
        if (CommonOptions.Parse(root, [.. args.Where(a => a != "--")], out var result, printBenchmarkDotNetHelp) is { } exit)
        {
            return (null, exit);
        }

        try
        {
            var isSmoke = result.GetValue(smoke);
            return (new BenchOptions
            {
                Common = common.Read(result),
                Smoke = isSmoke,
                Job = isSmoke ? JobKind.Smoke : result.GetValue(job),
                MakeCertificate = result.GetValue(makeCert),
                ForceCertificate = result.GetValue(force),
                Verbose = result.GetValue(verbose),
                BenchmarkDotNetArgs = result.UnmatchedTokens,
            }, ExitCodes.Ok);
        }
        catch (UsageException e)
        {
            Console.Error.WriteLine(e.Message);
            return (null, ExitCodes.BadUsage);
        }
    }

    private static JobKind ParseJob(string value, System.CommandLine.Parsing.ArgumentResult result)
    {
        switch (value.ToLowerInvariant())
        {
            case "default": return JobKind.Default;
            case "short" or "shortrun": return JobKind.Short;
            case "medium" or "mediumrun": return JobKind.Medium;
            case "long" or "longrun": return JobKind.Long;
            case "dry" or "smoke": return JobKind.Smoke;
            default:
                result.AddError($"--job {value}: expected default, short, medium, long or dry.");
                return JobKind.Default;
        }
    }

    private const string Description =
        """
        ProtocolBench benchmarks: REST, gRPC and GraphQL over HTTP and HTTPS, measured with BenchmarkDotNet.

          dotnet run -c Release --project benchmarks [-- options]

        With no options it makes the HTTPS certificate if missing, starts the three services (Release, SQLite), measures
        every scenario on every protocol and transport (the default job, about 11 minutes on 2 cores), writes the reports
        (summary.html, summary.md and BenchmarkDotNet's own per class, in the results folder) and stops the services.

        Any option not listed here goes to BenchmarkDotNet: --filter '*Payloads*' or '*int-max*' (classes Baseline,
        Payloads, Files, BinaryFiles, Authors; scenario names as in docs/methodology.md), --list flat, --iterationCount N,
        --warmupCount N, --iterationTime MS, --stopOnFirstError, ... (its options are listed after these).

        Exit codes (both commands): 0 all cells measured; 1 a cell failed or a report is missing; 2 bad options;
        3 a service would not start or died; 130 Ctrl+C; 143 SIGTERM (partial results are written first).
        """;
}
