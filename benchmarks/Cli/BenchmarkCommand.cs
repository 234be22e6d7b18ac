using System.Reflection;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Loggers;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;
using ProtocolBench.Benchmarks.Config;
using ProtocolBench.Benchmarks.Reporting;
using ProtocolBench.Benchmarks.Suite;
using ProtocolBench.Lab;
using ProtocolBench.Lab.Scenarios;
using ProtocolBench.Lab.Services;
using ProtocolBench.Shared.Clients;
using ProtocolBench.Shared.Domain;
using ProtocolBench.Shared.Hosting;

namespace ProtocolBench.Benchmarks.Cli;

/// <summary>
/// The main command: certificate, services, the suite, the reports, and the services stopped again whatever happens
/// (success, failure, Ctrl+C, SIGTERM; on SIGKILL the services' stdin lifeline stops them).
/// </summary>
public static class BenchmarkCommand
{
    public static readonly Type[] SuiteTypes = [typeof(Floor), typeof(Payloads), typeof(Files), typeof(BinaryFiles), typeof(Authors), typeof(DomainFloor)];

    private static readonly string[] ReportSuffixes = ["-report.html", "-report-github.md", "-report.csv", "-report-full.json"];

    public static async Task<int> RunAsync(string[] args)
    {
        var (options, parseExit) = BenchOptions.Parse(args, () =>
        {
            Console.WriteLine("BenchmarkDotNet's own options:");
            BenchmarkSwitcher.FromTypes(SuiteTypes).Run(["--help"], InformationConfig());
        });
        if (options is null)
        {
            return parseExit;
        }

        if (options.Compare is var (a, b))
        {
            return CompareCommand.Run(a, b);
        }

        if (options.Rewrite is { } folder)
        {
            return Rewrite(folder);
        }

        if (typeof(BenchmarkCommand).Assembly.GetCustomAttribute<AssemblyConfigurationAttribute>()?.Configuration != "Release")
        {
            await Console.Error.WriteLineAsync("Benchmarks run only in Release: dotnet run -c Release --project benchmarks");
            return ExitCodes.BadUsage;
        }

        if (options.IsInformationOnly)
        {
            BenchmarkSwitcher.FromTypes(SuiteTypes).Run([.. options.BenchmarkDotNetArgs], InformationConfig());
            return 0;
        }

        var root = ProjectPaths.FindRoot();
        if (root is null)
        {
            await Console.Error.WriteLineAsync($"Run this from the repository (no {ProjectPaths.SolutionFile} above {Directory.GetCurrentDirectory()}).");
            return ExitCodes.BadUsage;
        }

        if (options.Common.External is null || options.MakeCertificate)
        {
            var made = ProjectCertificate.EnsureExists(force: options.MakeCertificate && options.ForceCertificate);
            Console.WriteLine(made
                ? $"Made the HTTPS certificate: {ProjectCertificate.DefaultPfxPath} (server) and {ProjectCertificate.DefaultCrtPath} (trusted by the clients)."
                : $"HTTPS certificate: {ProjectCertificate.DefaultCrtPath}");
            if (options.MakeCertificate)
            {
                return 0;
            }
        }

        var started = DateTimeOffset.Now;
        var common = options.Common;
        var results = RunFolder.Create("benchmarks", common.Results, started);
        var external = common.External is not null;
        var pinning = Pinning.Plan(common.NoPin, external);

        using var interruption = new Interruption();
        ServiceSession session;
        try
        {
            session = await ServiceSession.OpenAsync(common, Display.Protocols, pinning.ServerCpus, Console.WriteLine, interruption.Token);
        }
        catch (LaunchException e)
        {
            await Console.Error.WriteLineAsync(e.Message);
            return ExitCodes.ServiceFailed;
        }
        catch (OperationCanceledException) when (interruption.Requested)
        {
            return interruption.ExitCode;
        }

        await using (session)
        {
            AppDomain.CurrentDomain.ProcessExit += (_, _) => session.Kill();
            // Stop the services at once: the cell running now fails fast, the ones left fail in their set-up, and the
            // reports are written from what was measured.
            using var onInterrupt = interruption.Token.Register(() => _ = session.StopAsync());
            var suite = new SuiteRun(
                new ClientOptions
                {
                    Addresses = session.Addresses,
                    TrustedCertificatePath = ProjectPaths.TrustedCertificate,
                    HttpsUsesHttp2ForRestAndGraphQL = common.Http2,
                },
                session.Database,
                () => interruption.Requested ? $"the run was interrupted ({interruption.Reason})" : null,
                session.Problem);
            SuiteRun.Current = suite;
            var client = pinning.PinClient();

            var run = new RunInfo
            {
                Job = BenchConfig.Describe(options.Job),
                Database = session.Database?.Describe() ?? "whatever the external services use",
                Services = session.Description,
                Pinning = client.StartsWith("not pinned", StringComparison.Ordinal) ? $"{pinning.Describe()}; client {client}" : pinning.Describe(),
                HttpVersions = common.Http2
                    ? "REST and GraphQL: HTTP/1.1 over HTTP, h2 over HTTPS (--http2); gRPC: h2c over HTTP, h2 over HTTPS; one reused connection per client"
                    : "REST and GraphQL: HTTP/1.1 on both transports; gRPC: h2c (prior knowledge) over HTTP, h2 over HTTPS; one reused connection per client",
                CommandLine = "dotnet run -c Release --project benchmarks" + (args.Length > 0 ? " -- " + string.Join(' ', args) : ""),
                Started = started,
            };

            Console.WriteLine($"Pinning: {run.Pinning}");
            Console.WriteLine($"Job: {run.Job}; {options.Rounds} round(s), seed {options.Seed}. Results: {results}");
            var (rounds, restarts) = await MeasureAsync(options, session, suite, pinning.ClientMask, results, interruption);
            run = run with
            {
                Rounds = options.Rounds,
                Seed = options.Seed,
                Restarts = session.External ? "never (--external: started and stopped elsewhere)"
                    : restarts.Count == 0 ? "never"
                    : $"{(options.RestartEvery == 1 ? "before every round" : $"before every {options.RestartEvery}th round")} after the first " +
                      $"({restarts.Count} restart(s), healthy after {restarts.Min():F1}–{restarts.Max():F1} s; the pids under Services are the first start's)",
            };
            var exit = Report(rounds, options, run with { Finished = DateTimeOffset.Now, Interrupted = interruption.Reason }, results, session, suite.Wire);
            await session.StopAsync();
            Console.WriteLine("Services stopped.");
            return interruption.Requested ? interruption.ExitCode : exit;
        }
    }

    /// <summary>
    /// The rounds: before each, the services restarted when due and warmed up after every start; then BenchmarkDotNet
    /// over the selection in this round's shuffled order. Stops early on Ctrl+C, SIGTERM or a failed restart.
    /// </summary>
    private static async Task<(List<(int Round, IReadOnlyList<Summary> Summaries)> Rounds, List<double> Restarts)> MeasureAsync(
        BenchOptions options, ServiceSession session, SuiteRun suite, long? clientMask, string results, Interruption interruption)
    {
        var progress = new ProgressReporter(suite.Wire, options.Rounds);
        var random = new Random(options.Seed);
        string[] benchmarkArgs = options.HasFilter ? [.. options.BenchmarkDotNetArgs] : [.. options.BenchmarkDotNetArgs, "--filter", "*"];
        var rounds = new List<(int Round, IReadOnlyList<Summary> Summaries)>();
        var restarts = new List<double>();
        var selection = Selection(benchmarkArgs, BenchConfig.Create(options, results, null, suite.Wire, new InterleavedOrderer(random), progress));
        // Each cell's time per call (the warm-up's timing pass, then its median in the last round): sizes its iterations.
        var perCall = new Dictionary<string, double>();
        var warm = false;
        for (var round = 1; round <= options.Rounds && !interruption.Requested; round++)
        {
            if (round > 1 && options.RestartEvery > 0 && (round - 1) % options.RestartEvery == 0 && !session.External)
            {
                Console.WriteLine($"Restarting the services before round {round} ...");
                try
                {
                    if (await session.RestartAsync() is { } seconds)
                    {
                        restarts.Add(seconds);
                        warm = false;
                        Console.WriteLine($"  healthy again after {seconds:F1} s");
                    }
                }
                catch (Exception e) when (e is OperationCanceledException or LaunchException)
                {
                    Console.Error.WriteLine(interruption.Requested ? "  stopped while restarting" : $"  {e.Message}");
                    break;
                }
            }

            // A dry run measures each cell once and claims nothing about speed: no warm-up.
            if (!warm && selection.Count > 0 && options.Job != JobKind.Smoke)
            {
                try
                {
                    var (took, failures) = await ServiceWarmup.RunAsync(selection, BenchConfig.WarmupPerCell, suite, perCall, interruption.Token);
                    Console.WriteLine($"Warmed the services up for round {round}: every selected cell called for a moment ({took.TotalSeconds:F1} s).");
                    failures.ForEach(f => Console.Error.WriteLine($"  warm-up: {f}"));
                }
                catch (OperationCanceledException) when (interruption.Requested)
                {
                    break;
                }

                warm = true;
            }

            progress.StartRound(round);
            var config = BenchConfig.Create(
                options, Path.Combine(results, RoundFolder(round)), clientMask, suite.Wire, new InterleavedOrderer(random), progress, allocations: round == 1);
            // The classes in a new order too: the floor is not always measured first, right after a restart.
            var types = SuiteTypes.ToArray();
            random.Shuffle(types);
            var summaries = RunRound(types, benchmarkArgs, config, perCall);
            rounds.Add((round, summaries));
            foreach (var report in summaries.SelectMany(s => s.Reports).Where(r => r.Success))
            {
                perCall[Cell.Id(report.BenchmarkCase)] = report.ResultStatistics!.Median;
            }
        }

        return (rounds, restarts);
    }

    /// <summary>
    /// One round as BenchmarkSwitcher would run it (its argument parsing, the suite's filters), with each cell's
    /// iterations sized from its time per call in the round before (<see cref="BenchConfig.SizeIterations"/>).
    /// </summary>
    private static List<Summary> RunRound(Type[] types, string[] benchmarkArgs, IConfig config, IReadOnlyDictionary<string, double> perCall)
    {
        var (parsed, parsedConfig, _) = BenchmarkDotNet.ConsoleArguments.ConfigParser.Parse(benchmarkArgs, ConsoleLogger.Default, config);
        if (!parsed || parsedConfig is null)
        {
            return [];
        }

        var effective = ManualConfig.Union(config, parsedConfig);
        var plan = types
            .Select(type => BenchConfig.SizeIterations(BenchmarkConverter.TypeToBenchmarks(type, effective), perCall))
            .Where(info => info.BenchmarksCases.Length > 0)
            .ToArray();
        return plan.Length == 0 ? [] : [.. BenchmarkRunner.Run(plan)];
    }

    public static string RoundFolder(int round) => $"round-{round}";

    /// <summary>The summary of a finished run written again from its summary.json, by the rules of this build.</summary>
    private static int Rewrite(string folder)
    {
        RunFile run;
        try
        {
            run = RunFile.Load(folder);
        }
        catch (Exception e) when (e is IOException or InvalidDataException)
        {
            Console.Error.WriteLine(e.Message);
            return ExitCodes.BadUsage;
        }

        var directory = Directory.Exists(folder) ? folder : Path.GetDirectoryName(Path.GetFullPath(folder))!;
        var reportFiles = ReportSuffixes
            .SelectMany(suffix => Directory.EnumerateFiles(directory, "*" + suffix, SearchOption.AllDirectories))
            .Select(file => Path.GetRelativePath(directory, file).Replace('\\', '/'))
            .Order(StringComparer.Ordinal)
            .ToList();
        Console.WriteLine(new SummaryWriter(run.Results, run.Run).Write(directory, reportFiles));
        Console.WriteLine($"Rewrote {Path.Combine(directory, SummaryWriter.HtmlFile)} and {SummaryWriter.MarkdownFile} from {RunFile.FileName}.");
        return ExitCodes.Ok;
    }

    /// <summary>The cells BenchmarkDotNet will run for these arguments (its own filter parsing, the suite's filters).</summary>
    private static List<BenchmarkCase> Selection(string[] benchmarkArgs, IConfig config)
    {
        var (parsed, parsedConfig, _) = BenchmarkDotNet.ConsoleArguments.ConfigParser.Parse(benchmarkArgs, NullLogger.Instance, config);
        return !parsed || parsedConfig is null
            ? []
            : [.. SuiteTypes.SelectMany(type => BenchmarkConverter.TypeToBenchmarks(type, ManualConfig.Union(config, parsedConfig)).BenchmarksCases)];
    }

    private static int Report(
        IReadOnlyList<(int Round, IReadOnlyList<Summary> Summaries)> rounds, BenchOptions options, RunInfo run, string results, ServiceSession session, WireTally wire)
    {
        var problems = new List<string>();
        var reportFiles = new List<string>();
        foreach (var summary in rounds.SelectMany(r => r.Summaries))
        {
            // One class per summary: reports are named after the class; with --join after the summary's title.
            var types = summary.BenchmarksCases.Select(c => c.Descriptor.Type).Distinct().ToList();
            var name = types.Count == 1 ? types[0].FullName : summary.Title;
            foreach (var suffix in ReportSuffixes)
            {
                var file = Path.Combine(summary.ResultsDirectoryPath, name + suffix);
                if (File.Exists(file))
                {
                    reportFiles.Add(Path.GetRelativePath(results, file).Replace('\\', '/'));
                }
                else
                {
                    problems.Add($"missing report {file}");
                }
            }

            if (summary.HasCriticalValidationErrors)
            {
                problems.Add($"{summary.Title}: {string.Join("; ", summary.ValidationErrors.Select(v => v.Message))}");
            }
        }

        var reports = rounds.SelectMany(r => r.Summaries.SelectMany(s => s.Reports).Select(report => (r.Round, Report: report))).ToList();
        var cells = Cells(reports.Where(x => !Cell.IsDomainFloor(x.Report.BenchmarkCase)), wire);
        var domainFloors = DomainFloors(reports.Where(x => Cell.IsDomainFloor(x.Report.BenchmarkCase)));
        var runFile = new RunFile(run, cells, domainFloors);
        runFile.Save(results);
        var digest = new SummaryWriter(runFile.Results, run).Write(results, reportFiles);
        foreach (var file in new[] { SummaryWriter.MarkdownFile, SummaryWriter.HtmlFile, RunFile.FileName })
        {
            if (!File.Exists(Path.Combine(results, file)))
            {
                problems.Add($"missing {file}");
            }
        }

        problems.AddRange(cells.Where(c => !c.Success).Select(c =>
            $"failed: {c.Scenario} {Display.Of(c.Protocol, c.Transport)} in round {string.Join(", ", c.Rounds.Where(r => !r.Success).Select(r => r.Round))}"));
        problems.AddRange(domainFloors.Where(d => !d.Success).Select(d =>
            $"failed: {d.Scenario} in process in round {string.Join(", ", d.Rounds.Where(r => !r.Success).Select(r => r.Round))}"));
        problems.AddRange(cells.Where(c => c.Success && c.Wire is null).Select(c => $"no wire bytes: {c.Scenario} {Display.Of(c.Protocol, c.Transport)}"));
        if (!options.HasFilter)
        {
            var measured = cells.Where(c => c.Success).Select(c => (c.Scenario, c.Protocol, c.Transport)).ToHashSet();
            problems.AddRange(ExpectedCells().Where(e => !measured.Contains(e)).Select(e => $"absent cell: {e.Scenario} {Display.Of(e.Protocol, e.Transport)}"));
            var floors = domainFloors.Select(d => d.Scenario).ToHashSet();
            problems.AddRange(Catalogue.All
                .Where(s => s.HasRequest && (!s.UsesDatabase || session.Database is not null) && !floors.Contains(s))
                .Select(s => $"absent domain floor: {s}"));
        }
        else if (cells.Count == 0)
        {
            problems.Add("the filter matched no benchmark");
        }

        problems.InsertRange(0, session.Deaths.Values.Select(death => $"{death}; the results so far are in the reports"));

        Console.WriteLine();
        Console.WriteLine(digest);
        Console.WriteLine($"Reports: {Path.Combine(results, SummaryWriter.HtmlFile)}");
        Console.WriteLine($"         {Path.Combine(results, SummaryWriter.MarkdownFile)}");
        Console.WriteLine($"         {Path.Combine(results, RoundFolder(1))}{Path.DirectorySeparatorChar} ... (BenchmarkDotNet, per round: {reportFiles.Count} files)");
        if (problems.Count == 0)
        {
            Console.WriteLine($"All {cells.Count} cells and {domainFloors.Count} domain floors measured and every report written.");
            return 0;
        }

        Console.Error.WriteLine($"{problems.Count} problem(s):");
        foreach (var problem in problems)
        {
            Console.Error.WriteLine($"  {problem}");
        }

        return session.Deaths.Count > 0 ? ExitCodes.ServiceFailed : ExitCodes.CheckFailed;
    }

    /// <summary>Each cell's reports of every round, joined by scenario, protocol and transport.</summary>
    private static List<CellResult> Cells(IEnumerable<(int Round, BenchmarkReport Report)> reports, WireTally wire) =>
        reports
            .GroupBy(x => (Cell.ScenarioOf(x.Report.BenchmarkCase), Cell.ProtocolOf(x.Report.BenchmarkCase), Cell.TransportOf(x.Report.BenchmarkCase)))
            .Select(g => new CellResult(
                g.Key.Item1, g.Key.Item2, g.Key.Item3,
                [.. g.Select(x => RoundResult.From(x.Round, x.Report)).OrderBy(r => r.Round)],
                wire.Find(g.Key.Item1, g.Key.Item2, g.Key.Item3)))
            .ToList();

    /// <summary>Each domain floor's reports of every round, joined by scenario.</summary>
    private static List<DomainFloorResult> DomainFloors(IEnumerable<(int Round, BenchmarkReport Report)> reports) =>
        reports
            .GroupBy(x => Cell.ScenarioOf(x.Report.BenchmarkCase))
            .Select(g => new DomainFloorResult(g.Key, [.. g.Select(x => RoundResult.From(x.Round, x.Report)).OrderBy(r => r.Round)]))
            .ToList();

    /// <summary>Every cell of the full suite: each scenario on each protocol it applies to, over both transports.</summary>
    public static IEnumerable<(Scenario Scenario, Protocol Protocol, Transport Transport)> ExpectedCells() =>
        from scenario in Catalogue.All
        from protocol in scenario.Protocols
        from transport in Display.Transports
        select (scenario, protocol, transport);

    private static IConfig InformationConfig() => ManualConfig.CreateEmpty().AddLogger(ConsoleLogger.Default);
}
