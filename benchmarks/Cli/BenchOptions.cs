using System.CommandLine;
using ProtocolBench.Benchmarks.Config;
using ProtocolBench.Lab.CommandLine;

namespace ProtocolBench.Benchmarks.Cli;

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

    /// <summary>How many times the selection is measured and when a row stops; rankings come from the spread between rounds.</summary>
    public RoundDesign Design { get; init; } = RoundDesign.Fixed(1);

    /// <summary>Restart the services before every this many rounds (0: never, the default); not with --external.</summary>
    public int RestartEvery { get; init; }

    /// <summary>The seed of the rounds' shuffled orders; a run with the same seed measures in the same order.</summary>
    public int Seed { get; init; }

    /// <summary>compare RESULTS_A RESULTS_B [...]: the run folders, or null for a measuring run.</summary>
    public IReadOnlyList<string>? Compare { get; init; }

    /// <summary>report RESULTS: write a run's summary again from its summary.json, or null.</summary>
    public string? Rewrite { get; init; }

    /// <summary>The arguments for BenchmarkSwitcher, in the order given.</summary>
    public IReadOnlyList<string> BenchmarkDotNetArgs { get; init; } = [];

    /// <summary>Whether the run measures a selection rather than the whole suite: a filter of the user's, or a preset's scenarios.</summary>
    public bool Selects => HasFilter || Common.Preset is not null;

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
            Description = $"default: {RoundDesign.Default.Minimum} rounds of 1 warm-up + 3 iterations of ~{SuiteJob.IterationMilliseconds} ms per cell, then up to {RoundDesign.Default.Maximum} for the cells of pairs more rounds could decide or give a claim; " +
                          $"thorough: the same, up to {RoundDesign.Thorough.Maximum}; short: 2 such rounds, fixed; " +
                          "medium, long: BenchmarkDotNet's presets, 3 rounds; dry: every cell once",
            HelpName = "default|thorough|short|medium|long|dry",
            DefaultValueFactory = _ => JobKind.Default,
            CustomParser = result => ParseJob(result.Tokens.Count > 0 ? result.Tokens[0].Value : "", result),
        };
        var smoke = new Option<bool>("--smoke") { Description = "Every cell once (the dry job), then fail unless every cell and every report is there. For CI." };
        var makeCert = new Option<bool>("--make-cert") { Description = "Only make the HTTPS certificate (certs/protocolbench.pfx and .crt) and exit" };
        var force = new Option<bool>("--force") { Description = "With --make-cert: replace an existing certificate" };
        var verbose = new Option<bool>("--verbose") { Description = "Show BenchmarkDotNet's own output on the console (it is always in the log file)" };
        var rounds = new Option<int?>("--rounds")
        {
            Description = "Measure every row exactly this many times (a fixed design), each round in a new shuffled order; rankings need 2 or more " +
                          "[default: the default job stops each row when settled (--min-rounds, --max-rounds); 2 for short, 3 for medium and long, 1 for dry]",
            HelpName = "N",
            CustomParser = result => ValueParsers.PositiveInt(result),
        };
        var minRounds = new Option<int?>("--min-rounds")
        {
            Description = $"Measure every row at least this many times, then stop each row once all its pairs are decided (faster or level) or its undecided ones are too close to the 10 % line for the rounds left to decide them or give them a claim [default: {RoundDesign.Default.Minimum}; at least 2]",
            HelpName = "N",
            CustomParser = result => ValueParsers.PositiveInt(result),
        };
        var maxRounds = new Option<int?>("--max-rounds")
        {
            Description = $"Measure the rows the look after --min-rounds leaves open this many times, and read them there [default: {RoundDesign.Default.Maximum}]",
            HelpName = "N",
            CustomParser = result => ValueParsers.PositiveInt(result),
        };
        var restartEvery = new Option<int>("--restart-every")
        {
            Description = "Restart the services (and so their JIT state) before every N-th round [default: 0, never: restarts moved no cell " +
                          "more than the rounds without them, and their warm-ups cost a round's time]. Ignored with --external",
            HelpName = "N",
            DefaultValueFactory = _ => 0,
            CustomParser = ValueParsers.NonNegativeInt,
        };
        var seed = new Option<int?>("--seed")
        {
            Description = "Seed of the shuffled orders, to measure again in the same order [default: a new one, printed and reported]",
            HelpName = "N",
            CustomParser = result => ValueParsers.WholeNumber(result),
        };
        var root = CommonOptions.Root(Description);
        common.AddTo(root);
        foreach (var option in new Option[] { job, smoke, rounds, minRounds, maxRounds, restartEvery, seed, makeCert, force, verbose })
        {
            root.Options.Add(option);
        }

        var runs = new Argument<string[]>("RESULTS")
        {
            Description = "Two or more results folders of the benchmark command (each holds summary.json): the same command run again, or runs under other conditions",
            Arity = new ArgumentArity(2, 26),
        };
        var compare = new Command(
            "compare",
            "Compare runs: per row whether they name the same winner, per cell how far the ratio to REST moved (two runs); under different " +
            "conditions, which ones flip each winner; exit 1 when a row names opposite winners under the same conditions")
        {
            runs,
        };
        root.Subcommands.Add(compare);
        var run = new Argument<string>("RESULTS") { Description = "A results folder of the benchmark command" };
        var report = new Command("report", "Write a run's summary.md and summary.html again from its summary.json (after an upgrade of the rules or the layout)")
        {
            run,
        };
        root.Subcommands.Add(report);
        root.TreatUnmatchedTokensAsErrors = false;
        if (CommonOptions.Parse(root, [.. args.Where(a => a != "--")], out var result, printBenchmarkDotNetHelp) is { } exit)
        {
            return (null, exit);
        }

        if (result.CommandResult.Command == report)
        {
            return (new BenchOptions { Common = common.Read(result), Rewrite = result.GetValue(run)! }, ExitCodes.Ok);
        }

        if (result.CommandResult.Command == compare)
        {
            return (new BenchOptions { Common = common.Read(result), Compare = result.GetValue(runs)! }, ExitCodes.Ok);
        }

        try
        {
            var isSmoke = result.GetValue(smoke);
            var kind = isSmoke ? JobKind.Smoke : result.GetValue(job);
            return (new BenchOptions
            {
                Design = DesignOf(kind, result.GetValue(rounds), result.GetValue(minRounds), result.GetValue(maxRounds)),
                RestartEvery = result.GetValue(restartEvery),
                Seed = result.GetValue(seed) ?? Random.Shared.Next(1, 1_000_000),
                Common = common.Read(result),
                Smoke = isSmoke,
                Job = kind,
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

    /// <summary>
    /// The rounds: --rounds N fixes them; --min-rounds or --max-rounds (or the default job without either) stops each row
    /// when it is settled; the other jobs measure a fixed number.
    /// </summary>
    private static RoundDesign DesignOf(JobKind kind, int? rounds, int? minimum, int? maximum)
    {
        if (rounds is { } fixedRounds)
        {
            return minimum is null && maximum is null
                ? RoundDesign.Fixed(fixedRounds)
                : throw new UsageException("--rounds fixes the number of rounds; --min-rounds and --max-rounds let rows stop when settled: give one or the other.");
        }

        var sequential = kind == JobKind.Thorough ? RoundDesign.Thorough : RoundDesign.Default;
        if (kind == JobKind.Smoke || (kind is not (JobKind.Default or JobKind.Thorough) && minimum is null && maximum is null))
        {
            return RoundDesign.Fixed(SuiteJob.DefaultRounds(kind));
        }

        var design = new RoundDesign(minimum ?? Math.Min(sequential.Minimum, maximum ?? int.MaxValue), maximum ?? Math.Max(sequential.Maximum, minimum ?? 0));
        return design.Minimum < 2
            ? throw new UsageException($"--min-rounds {design.Minimum}: a pair needs two rounds for an interval; give 2 or more.")
            : design.Maximum < design.Minimum
                ? throw new UsageException($"--max-rounds {design.Maximum} is below --min-rounds {design.Minimum}.")
                : design;
    }

    private static JobKind ParseJob(string value, System.CommandLine.Parsing.ArgumentResult result)
    {
        switch (value.ToLowerInvariant())
        {
            case "default": return JobKind.Default;
            case "thorough": return JobKind.Thorough;
            case "short" or "shortrun": return JobKind.Short;
            case "medium" or "mediumrun": return JobKind.Medium;
            case "long" or "longrun": return JobKind.Long;
            case "dry" or "smoke": return JobKind.Smoke;
            default:
                result.AddError($"--job {value}: expected default, thorough, short, medium, long or dry.");
                return JobKind.Default;
        }
    }

    private static readonly string Description =
        $"""
        ProtocolBench benchmarks: REST, gRPC, GraphQL and SignalR over HTTP and HTTPS, measured with BenchmarkDotNet.

          dotnet run -c Release --project benchmarks [-- options]

        With no options it makes the HTTPS certificate if missing, starts the four services (Release, SQLite), measures
        every scenario on every protocol and transport (the default job: {RoundDesign.Default.Minimum} rounds, and up to {RoundDesign.Default.Maximum} for the rows with a
        pair still open; 24–29 minutes on 2 cores, by how noisy the machine is), writes the reports
        (summary.html, summary.md and BenchmarkDotNet's own per class, in the results folder) and stops the services.

        Any option not listed here goes to BenchmarkDotNet: --filter '*Payloads*' or '*int-max*' (classes Floor,
        Payloads, Files, BinaryFiles, Authors, Shapes, DomainFloor, LoopbackTransfer; scenario names as in
        docs/methodology.md), --list flat, --iterationCount N, --warmupCount N, --iterationTime MS, --stopOnFirstError,
        ... (its options are listed after these).

        Exit codes (both commands): 0 all cells measured; 1 a cell failed or a report is missing; 2 bad options;
        3 a service would not start or died; 130 Ctrl+C; 143 SIGTERM (partial results are written first).
        """;
}
