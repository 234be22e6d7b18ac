using System.Reflection;
using BenchmarkDotNet.Configs;
using ProtocolBench.Benchmarks.Config;
using ProtocolBench.Lab.CommandLine;
using ProtocolBench.Lab.Services;
using ProtocolBench.Shared.Domain;

namespace ProtocolBench.Benchmarks.Cli;

/// <summary>
/// The main command: certificate, services, the suite, the reports, and the services stopped again whatever happens
/// (success, failure, Ctrl+C, SIGTERM; on SIGKILL the services' stdin lifeline stops them).
/// </summary>
public static class BenchmarkCommand
{
    public static readonly Type[] SuiteTypes = [typeof(Floor), typeof(Payloads), typeof(Files), typeof(BinaryFiles), typeof(Authors), typeof(Shapes), typeof(DomainFloor), typeof(LoopbackTransfer)];

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

        if (options.Compare is { } runs)
        {
            return runs.Count == 2 ? CompareCommand.Run(runs[0], runs[1]) : CompareCommand.Run(runs);
        }

        if (options.Rewrite is { } folder)
        {
            return ReportCommand.Run(folder);
        }

        if (typeof(BenchmarkCommand).Assembly.GetCustomAttribute<AssemblyConfigurationAttribute>()?.Configuration != "Release")
        {
            await Console.Error.WriteLineAsync("Benchmarks run only in Release: dotnet run -c Release --project benchmarks");
            return ExitCodes.BadUsage;
        }

        var common = options.Common;
        var external = common.External is not null;
        var pinning = common.Pinning;
        var suiteJob = ManualConfig.CreateEmpty().AddJob(SuiteJob.Of(options.Job, pinning.ClientMask));
        var (arguments, problem) = BenchmarkDotNetArguments.Parse(options, suiteJob);
        if (arguments is null)
        {
            await Console.Error.WriteLineAsync($"{problem} See --help.");
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

        if (options.MakeCertificate)
        {
            Console.WriteLine(ProjectCertificate.Ensure(options.ForceCertificate));
            return ExitCodes.Ok;
        }

        var started = DateTimeOffset.Now;
        var results = RunFolder.Create("benchmarks", common.Results, started);

        using var interruption = new Interruption();
        using var idle = CpuIdle.Hold(common.NoIdlePoll);
        ServiceSession session;
        try
        {
            session = await ServiceSession.OpenAsync(common, Display.Protocols, Console.WriteLine, interruption.Token);
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
            // Stop the services at once: the cell running now fails fast, the ones left fail in their set-up, and the
            // reports are written from what was measured.
            using var onInterrupt = interruption.Token.Register(() => _ = session.StopAsync());
            var runId = RunDescription.NewId(started);
            var suite = new SuiteRun(
                common.ClientOptions(session.Addresses),
                session.Database,
                new CreatedAuthors(SuiteRun.Command, runId),
                () => interruption.Requested ? $"the run was interrupted ({interruption.Reason})" : null,
                session.Problem);
            SuiteRun.Begin(suite);
            var run = new BenchmarkRun
            {
                Id = runId,
                Job = SuiteJob.Describe(options.Job, arguments.JobOf(suiteJob)),
                Database = session.DatabaseSetup ?? "whatever the external services use",
                Services = session.Description,
                Pinning = pinning.Apply(),
                CpuIdle = idle.Description,
                HttpVersions = common.HttpVersions,
                Conditions = common.Conditions,
                CommandLine = ShellCommand.Of("benchmarks", args),
                Started = started,
            };

            Console.WriteLine($"Pinning: {run.Pinning}");
            Console.WriteLine($"Idle cores: {run.CpuIdle}");
            Console.WriteLine($"Job: {run.Job}; {options.Design.Describe()}; seed {options.Seed}. Results: {results}");
            var measured = await new RoundRunner(options, arguments, session, suite, pinning.ClientMask, results, interruption).RunAsync();
            var restarts = measured.Restarts;
            run = run with
            {
                Conditions = await session.AppliedAsync(common.Conditions),
                Rounds = options.Design.Maximum,
                Design = options.Design,
                Seed = options.Seed,
                NotMade = [.. measured.NotMade
                    .GroupBy(n => n.Why)
                    .Select(g => $"{g.Key} ({string.Join(", ", g.OrderBy(n => Cell.ScenarioOf(n.Case)).Select(n => $"{Cell.ScenarioOf(n.Case).Short} {Cell.Where(n.Case)}"))})")],
                Restarts = session.External ? "never (--external: started and stopped elsewhere)"
                    : restarts.Count == 0 ? "never"
                    : $"{(options.RestartEvery == 1 ? "before every round" : $"before every {options.RestartEvery}th round")} after the first " +
                      $"({restarts.Count} restart(s), healthy after {restarts.Min():F1}–{restarts.Max():F1} s; the pids under Services are the first start's)",
            };
            var exit = Report(measured, options, run with { Finished = DateTimeOffset.Now, Interrupted = interruption.Reason }, results, session);
            await session.StopAsync();
            Console.WriteLine("Services stopped.");
            return interruption.Requested ? interruption.ExitCode : exit;
        }
    }

    public static string RoundFolder(int round) => $"round-{round}";

    /// <summary>Writes summary.json, summary.md and summary.html, prints the digest and the report files, and checks the run.</summary>
    private static int Report(MeasuredRounds measured, BenchOptions options, BenchmarkRun run, string results, ServiceSession session)
    {
        var checks = new RunChecks(session);
        var reportFiles = measured.Rounds.SelectMany(r => r.ReportFiles).ToList();
        measured.Rounds.SelectMany(r => r.Problems).ToList().ForEach(checks.Add);

        // A cell the interruption kept from running is not measured in that round, not failed.
        var reached = measured.Rounds.SelectMany(r => r.Results).Where(r => !measured.Unreached.Contains(r.Case)).ToList();
        var cells = Cells(reached.Where(r => Cell.HasProtocol(r.Case)));
        var domainFloors = ByScenario(reached.Where(r => Cell.IsDomainFloor(r.Case)), (scenario, rounds) => new DomainFloorResult(scenario, rounds));
        var transfers = ByScenario(reached.Where(r => Cell.IsLoopbackTransfer(r.Case)), (scenario, rounds) => new TransferResult(scenario, rounds));
        var runFile = new RunFile(run, cells, domainFloors, transfers);
        runFile.Save(results);
        var digest = new SummaryWriter(runFile.Results, run).Write(results, reportFiles);
        foreach (var file in new[] { SummaryWriter.MarkdownFile, SummaryWriter.HtmlFile, RunFile.FileName })
        {
            if (!File.Exists(Path.Combine(results, file)))
            {
                checks.Add($"missing {file}");
            }
        }

        checks.CheckResults(runFile, options.Selects || run.Interrupted is not null, [.. measured.NotMade.Select(n => n.Case)]);
        if (measured.Unreached.Count > 0)
        {
            Console.WriteLine($"{measured.Unreached.Count} cell(s) not measured in their round (interrupted).");
        }

        Console.WriteLine();
        Console.WriteLine(digest);
        Console.WriteLine($"Reports: {Path.Combine(results, SummaryWriter.HtmlFile)}");
        Console.WriteLine($"         {Path.Combine(results, SummaryWriter.MarkdownFile)}");
        Console.WriteLine($"         {Path.Combine(results, RoundFolder(1))}{Path.DirectorySeparatorChar} ... (BenchmarkDotNet: {reportFiles.Count} files over {measured.Rounds.Count} rounds)");
        return checks.Conclude(cells.Count, domainFloors.Count, transfers.Count, run.Interrupted is not null);
    }

    /// <summary>Each cell's results of every round, joined by scenario, protocol and transport; its wire bytes the last round's.</summary>
    public static List<CellResult> Cells(IEnumerable<(BenchmarkCase Case, RoundResult Result)> results) =>
        (from x in results
         group x.Result by (Cell.ScenarioOf(x.Case), Cell.ProtocolOf(x.Case), Cell.TransportOf(x.Case)) into g
         let rounds = g.OrderBy(r => r.Round).ToList()
         select new CellResult(g.Key.Item1, g.Key.Item2, g.Key.Item3, rounds, rounds.LastOrDefault(r => r.Wire is not null)?.Wire)).ToList();

    /// <summary>Each domain floor's or loopback transfer's results of every round, joined by scenario.</summary>
    private static List<T> ByScenario<T>(IEnumerable<(BenchmarkCase Case, RoundResult Result)> results, Func<Scenario, IReadOnlyList<RoundResult>, T> result) =>
        results
            .GroupBy(x => Cell.ScenarioOf(x.Case))
            .Select(g => result(g.Key, [.. g.Select(x => x.Result).OrderBy(r => r.Round)]))
            .ToList();

    private static IConfig InformationConfig() => ManualConfig.CreateEmpty().AddLogger(ConsoleLogger.Default);
}
