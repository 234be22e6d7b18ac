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
    public static readonly Type[] SuiteTypes = [typeof(Baseline), typeof(Payloads), typeof(Files), typeof(BinaryFiles), typeof(Authors)];

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
        var addresses = common.Addresses;

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
                    Addresses = addresses,
                    TrustedCertificatePath = ProjectPaths.TrustedCertificate,
                    HttpsUsesHttp2ForRestAndGraphQL = common.Http2,
                },
                protocol => interruption.Requested ? $"the run was interrupted ({interruption.Reason})" : session.Problem(protocol));
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
            Console.WriteLine($"Job: {run.Job}. Results: {results}");
            var config = BenchConfig.Create(options, results, pinning.ClientMask, suite.Wire, new ProgressReporter(suite.Wire));
            string[] benchmarkArgs = options.HasFilter ? [.. options.BenchmarkDotNetArgs] : [.. options.BenchmarkDotNetArgs, "--filter", "*"];
            var summaries = BenchmarkSwitcher.FromTypes(SuiteTypes).Run(benchmarkArgs, config).ToList();

            var exit = Report(summaries, options, run with { Finished = DateTimeOffset.Now, Interrupted = interruption.Reason }, results, session, suite.Wire);
            await session.StopAsync();
            Console.WriteLine("Services stopped.");
            return interruption.Requested ? interruption.ExitCode : exit;
        }
    }

    private static int Report(IReadOnlyList<Summary> summaries, BenchOptions options, RunInfo run, string results, ServiceSession session, WireTally wire)
    {
        var problems = new List<string>();
        var reportFiles = new List<string>();
        foreach (var summary in summaries)
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

        var cells = CellResult.From(summaries, wire);
        var resultSet = new ResultSet(cells);
        var digest = new SummaryWriter(resultSet, run).Write(results, reportFiles);
        foreach (var file in new[] { SummaryWriter.MarkdownFile, SummaryWriter.HtmlFile })
        {
            if (!File.Exists(Path.Combine(results, file)))
            {
                problems.Add($"missing {file}");
            }
        }

        problems.AddRange(cells.Where(c => !c.Success).Select(c => $"failed: {c.Scenario} {Display.Of(c.Protocol, c.Transport)}"));
        problems.AddRange(cells.Where(c => c.Success && c.Wire is null).Select(c => $"no wire bytes: {c.Scenario} {Display.Of(c.Protocol, c.Transport)}"));
        if (!options.HasFilter)
        {
            var measured = cells.Where(c => c.Success).Select(c => (c.Scenario, c.Protocol, c.Transport)).ToHashSet();
            problems.AddRange(ExpectedCells().Where(e => !measured.Contains(e)).Select(e => $"absent cell: {e.Scenario} {Display.Of(e.Protocol, e.Transport)}"));
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
        Console.WriteLine($"         {Path.Combine(results, "results")}{Path.DirectorySeparatorChar} (BenchmarkDotNet: {reportFiles.Count} files)");
        if (problems.Count == 0)
        {
            Console.WriteLine($"All {cells.Count} cells measured and every report written.");
            return 0;
        }

        Console.Error.WriteLine($"{problems.Count} problem(s):");
        foreach (var problem in problems)
        {
            Console.Error.WriteLine($"  {problem}");
        }

        return session.Deaths.Count > 0 ? ExitCodes.ServiceFailed : ExitCodes.CheckFailed;
    }

    /// <summary>Every cell of the full suite: each scenario on each protocol it applies to, over both transports.</summary>
    public static IEnumerable<(Scenario Scenario, Protocol Protocol, Transport Transport)> ExpectedCells() =>
        from scenario in Catalogue.All
        from protocol in scenario.Protocols
        from transport in Display.Transports
        select (scenario, protocol, transport);

    private static IConfig InformationConfig() => ManualConfig.CreateEmpty().AddLogger(ConsoleLogger.Default);
}
