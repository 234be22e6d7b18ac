using System.Diagnostics;
using System.Reflection;
using System.Runtime.InteropServices;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Loggers;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;
using ProtocolBench.Benchmarks.Config;
using ProtocolBench.Benchmarks.Reporting;
using ProtocolBench.Benchmarks.Suite;
using ProtocolBench.Shared.Clients;
using ProtocolBench.Shared.Clients.Launching;
using ProtocolBench.Shared.Domain.Data;
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

    private static ServiceSession? _session;
    private static int _aborting;

    public static async Task<int> RunAsync(string[] args)
    {
        BenchOptions options;
        try
        {
            options = BenchOptions.Parse(args);
        }
        catch (ArgumentException e)
        {
            await Console.Error.WriteLineAsync(e.Message);
            return 2;
        }

        if (options.Help)
        {
            Console.WriteLine(BenchOptions.HelpText);
            Console.WriteLine("BenchmarkDotNet's own options:");
            BenchmarkSwitcher.FromTypes(SuiteTypes).Run(["--help"], InformationConfig());
            return 0;
        }

        if (typeof(BenchmarkCommand).Assembly.GetCustomAttribute<AssemblyConfigurationAttribute>()?.Configuration != "Release")
        {
            await Console.Error.WriteLineAsync("Benchmarks run only in Release: dotnet run -c Release --project benchmarks");
            return 2;
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
            return 2;
        }

        if (options.ExternalHost is null || options.MakeCertificate)
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
        var results = Path.GetFullPath(options.ResultsDirectory ?? Path.Combine(root, "results", $"benchmarks-{started:yyyyMMdd-HHmmss}"));
        Directory.CreateDirectory(results);

        var pin = !options.NoPin && options.ExternalHost is null && Environment.ProcessorCount >= 2 &&
                  (OperatingSystem.IsLinux() || OperatingSystem.IsWindows());
        var serverCpus = Environment.ProcessorCount == 2 ? "1" : $"1-{Environment.ProcessorCount - 1}";
        var serversPinned = pin && OperatingSystem.IsLinux() && File.Exists("/usr/bin/taskset");
        var ports = options.Ports ?? new ServiceAddresses();
        var addresses = options.ExternalHost is { } host ? ports with { Host = host, TlsHost = options.TlsHost ?? host } : ports;
        BenchmarkContext.ClientOptions = new ClientOptions
        {
            Addresses = addresses,
            TrustedCertificatePath = ProjectCertificate.DefaultCrtPath,
            HttpsUsesHttp2ForRestAndGraphQL = options.Http2,
        };

        using var stop = new CancellationTokenSource();
        using var sigterm = PosixSignalRegistration.Create(PosixSignal.SIGTERM, context =>
        {
            context.Cancel = true;
            Abort(143, "SIGTERM", stop);
        });
        Console.CancelKeyPress += (_, e) =>
        {
            e.Cancel = true;
            Abort(130, "Ctrl+C", stop);
        };
        AppDomain.CurrentDomain.ProcessExit += (_, _) => _session?.Kill();

        try
        {
            _session = options.ExternalHost is null
                ? await ServiceSession.StartAsync(
                    new LaunchOptions
                    {
                        Addresses = addresses,
                        Provider = options.Database,
                        ConnectionString = options.ConnectionString,
                        ServerCpus = serversPinned ? serverCpus : null,
                        RepositoryRoot = root,
                    },
                    stop.Token)
                : await ServiceSession.ConnectAsync(addresses, stop.Token);
        }
        catch (Exception e) when (e is LaunchException or OperationCanceledException)
        {
            await Console.Error.WriteLineAsync(e.Message);
            return Volatile.Read(ref _aborting) == 1 ? 130 : 2;
        }

        try
        {
            BenchmarkContext.ServiceProblem = _session.Problem;
            if (pin && (OperatingSystem.IsLinux() || OperatingSystem.IsWindows()))
            {
                // The suite runs in this process (in-process toolchain), so pinning the process pins the client.
                Process.GetCurrentProcess().ProcessorAffinity = 1;
            }

            var run = new RunInfo
            {
                Job = BenchConfig.Describe(options.Job),
                Database = options.ExternalHost is null
                    ? new DatabaseOptions { Provider = options.Database, ConnectionString = options.ConnectionString }.Describe()
                    : "whatever the external services use",
                Services = _session.Description,
                Pinning = !pin
                    ? options.NoPin ? "none (--no-pin)" : options.ExternalHost is not null ? "none (services on another machine)" : "none (fewer than 2 cores)"
                    : serversPinned
                        ? $"client (this process) on core 0; services on core{(serverCpus.Contains('-') ? "s" : "")} {serverCpus} (taskset -c {serverCpus})"
                        : "client (this process) on core 0; services not pinned (no taskset)",
                HttpVersions = options.Http2
                    ? "REST and GraphQL: HTTP/1.1 over HTTP, h2 over HTTPS (--http2); gRPC: h2c over HTTP, h2 over HTTPS; one reused connection per client"
                    : "REST and GraphQL: HTTP/1.1 on both transports; gRPC: h2c (prior knowledge) over HTTP, h2 over HTTPS; one reused connection per client",
                CommandLine = "dotnet run -c Release --project benchmarks" + (args.Length > 0 ? " -- " + string.Join(' ', args) : ""),
                Started = started,
            };

            Console.WriteLine($"Pinning: {run.Pinning}");
            Console.WriteLine($"Job: {run.Job}. Results: {results}");
            var progress = new ProgressReporter();
            var config = BenchConfig.Create(options, results, pin, progress);
            string[] benchmarkArgs = options.HasFilter ? [.. options.BenchmarkDotNetArgs] : [.. options.BenchmarkDotNetArgs, "--filter", "*"];
            var summaries = BenchmarkSwitcher.FromTypes(SuiteTypes).Run(benchmarkArgs, config).ToList();

            return Report(summaries, options, run with { Finished = DateTimeOffset.Now }, results);
        }
        finally
        {
            if (Volatile.Read(ref _aborting) == 0)
            {
                await _session.StopAsync();
                Console.WriteLine("Services stopped.");
            }
        }
    }

    private static int Report(IReadOnlyList<Summary> summaries, BenchOptions options, RunInfo run, string results)
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

        var cells = CellResult.From(summaries);
        var resultSet = new ResultSet(cells);
        var digest = new SummaryWriter(resultSet, run).Write(results, reportFiles);
        foreach (var file in new[] { SummaryWriter.MarkdownFile, SummaryWriter.HtmlFile })
        {
            if (!File.Exists(Path.Combine(results, file)))
            {
                problems.Add($"missing {file}");
            }
        }

        problems.AddRange(cells.Where(c => !c.Success).Select(c => $"failed: {c.Class}.{c.Method} {Names.Of(c.Protocol, c.Transport)}"));
        problems.AddRange(cells.Where(c => c.Success && c.Wire is null).Select(c => $"no wire bytes: {c.Class}.{c.Method} {Names.Of(c.Protocol, c.Transport)}"));
        if (!options.HasFilter)
        {
            var measured = cells.Where(c => c.Success).Select(c => $"{c.Class}.{c.Method}.{c.Protocol}.{c.Transport}").ToHashSet();
            problems.AddRange(ExpectedCells().Where(e => !measured.Contains(e)).Select(e => $"absent cell: {e}"));
        }
        else if (cells.Count == 0)
        {
            problems.Add("the filter matched no benchmark");
        }

        if (_session?.Dead is { } dead)
        {
            problems.Insert(0, $"{dead.Spec.Name} exited (code {dead.ExitCode}) during the run; the results so far are in the reports");
        }

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

        return 1;
    }

    /// <summary>Every cell of the full suite: class.method.protocol.transport.</summary>
    public static IEnumerable<string> ExpectedCells() =>
        from type in SuiteTypes
        let protocols = ((ProtocolBenchmark)Activator.CreateInstance(type)!).Protocols
        from method in type.GetMethods().Where(m => m.GetCustomAttribute<BenchmarkDotNet.Attributes.BenchmarkAttribute>() is not null)
        from protocol in protocols
        from transport in Names.Transports
        select $"{type.Name}.{method.Name}.{protocol}.{transport}";

    /// <summary>Ctrl+C and SIGTERM: stop the services, then exit with the signal's code. Runs once, off the signal thread.</summary>
    private static void Abort(int exitCode, string why, CancellationTokenSource stop)
    {
        if (Interlocked.Exchange(ref _aborting, 1) == 1)
        {
            return;
        }

        new Thread(() =>
        {
            Console.Error.WriteLine($"\n{why}: stopping the services ...");
            stop.Cancel();
            try
            {
                _session?.StopAsync().Wait(TimeSpan.FromSeconds(40));
                Console.Error.WriteLine(_session is null ? "Nothing was running yet." : "Services stopped.");
            }
            catch (Exception e)
            {
                Console.Error.WriteLine($"Stopping the services: {e.GetBaseException().Message}");
                _session?.Kill();
            }

            Environment.Exit(exitCode);
        })
        { Name = "abort" }.Start();
    }

    private static IConfig InformationConfig() => ManualConfig.CreateEmpty().AddLogger(ConsoleLogger.Default);
}
