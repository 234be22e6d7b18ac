using System.Globalization;
using System.Text.RegularExpressions;
using ProtocolBench.Lab.Conditions;

namespace ProtocolBench.Integration.Tests;

/// <summary>
/// The load command's virtual users on Locust (--engine locust, issue 67): its master and two workers of Debian's Locust,
/// every protocol over both transports, every answer checked and every create accounted for, and each cell's figures
/// computed from all the times the workers measured, which the results folder keeps.
/// </summary>
public sealed partial class CommandTests
{
    private const int LocustUsers = 3;
    // 120 measured requests a cell, so that p99 (the 119th) is not the largest.
    private const int LocustRequests = 40;

    private static readonly string LocustFolder = Path.Combine(ProtocolBench.Shared.Domain.ProjectPaths.RootOrCurrent, "tools", "stacks", "locust");

    /// <summary>
    /// The study with its two workers on another "machine": a network namespace of their own, which reaches this one's
    /// master and services only over a veth pair, started there with the command the load command prints for them.
    /// </summary>
    [Fact]
    public async Task TheUsersStudyOnLocustWorkersOfAnotherHostChecksEveryAnswerAndKeepsEveryTime()
    {
        SkipUnlessLocust();
        Assert.SkipWhen(WorkerHost.Unavailable() is not null, WorkerHost.Unavailable() ?? "");
        await using var host = await WorkerHost.CreateAsync();
        var results = Path.Combine(_work, "results");
        await using var command = CommandProcess.Start(
            "loadtests", "ProtocolBench.LoadTests.dll",
            "users", "--engine", "locust", "--locust-workers", $"{host.Address},{host.Address}", "--locust-port", "0", "--no-pin", "--ports", "auto",
            "--database", "sqlite", "--connection-string", Database, "--results", results, "--scenarios", "search-11,create",
            "--protocols", "rest,grpc,graphql,signalr,signalr-messagepack", "--transports", "http,https",
            "--users", LocustUsers.ToString(), "--requests", LocustRequests.ToString(), "--warmup", "1", "--warmup-total", "1", "--fail-on-errors");

        // The command says what to run on each worker host; run there, it is all the workers need.
        var run = (await command.WaitForLineAsync(line => line.TrimStart().StartsWith("cd tools/stacks/locust && ", StringComparison.Ordinal), StartTimeout)).Trim();
        Assert.Contains($"--master-host {host.MachineAddress} ", run);
        var workers = new[] { host.Start(run), host.Start(run) };

        await command.AssertExitsWithAsync(0, TimeSpan.FromMinutes(5));
        using (var quit = CancellationTokenSource.CreateLinkedTokenSource(Token))
        {
            // The master tells its workers to quit as the study ends.
            quit.CancelAfter(TimeSpan.FromSeconds(20));
            foreach (var worker in workers)
            {
                await worker.WaitForExitAsync(quit.Token);
            }
        }

        var cells = Csv(Path.Combine(results, "users.csv"));
        Assert.Equal(2 * 5 * 2, cells.Count);
        foreach (var cell in cells)
        {
            var name = $"{cell["scenario"]} {cell["protocol"]} {cell["transport"]}";
            Assert.True(cell["status"] == "complete", $"{name}: {cell["status"]}");
            Assert.Equal((LocustUsers * LocustRequests).ToString(), cell["issued"]);
            Assert.Equal(cell["issued"], cell["ok"]);
            Assert.Equal(cell["ok"], cell["latency_count"]);
            if (cell["scenario"] == "create")
            {
                Assert.StartsWith("nothing lost: ", cell["nothing_lost"]);
            }

            // The service's memory while the users were connected, and per connection they opened.
            Assert.True(double.Parse(cell["service_mib_peak"], CultureInfo.InvariantCulture) >= double.Parse(cell["service_mib_start"], CultureInfo.InvariantCulture), name);
            Assert.True(double.Parse(cell["service_kib_per_connection"], CultureInfo.InvariantCulture) >= 0, name);

            // The figures are those of every time the workers measured, not of Locust's rounded statistics.
            var times = Csv(Path.Combine(results, "locust", $"{cell["scenario"]}-{cell["protocol"]}-{cell["transport"]}-u{LocustUsers}.csv".ToLowerInvariant()));
            Assert.Equal(int.Parse(cell["ok"]), times.Count);
            Assert.True(times.Select(t => t["worker"]).Distinct().Count() == 2, $"{name}: the users were not spread over both workers");
            var sorted = times.Select(t => long.Parse(t["micros"])).Order().ToArray();
            // A percentile by the nearest rank: the 60th of 120 times, the 119th.
            Assert.Equal(sorted[59] / 1000.0, double.Parse(cell["p50_ms"], CultureInfo.InvariantCulture));
            Assert.Equal(sorted[118] / 1000.0, double.Parse(cell["p99_ms"], CultureInfo.InvariantCulture));
            Assert.Equal(sorted[^1] / 1000.0, double.Parse(cell["max_ms"], CultureInfo.InvariantCulture));
        }

        var report = await File.ReadAllTextAsync(Path.Combine(results, "report.md"), Token);
        Assert.Matches($@"a master on this machine at {Regex.Escape(host.MachineAddress)}:\d+ and 2 worker\(s\) asked for on {Regex.Escape(host.Address)}, {Regex.Escape(host.Address)}, which joined as \S+_[0-9a-f]{{6}}, \S+_[0-9a-f]{{6}} \(--engine locust\)", report);
        Assert.Equal(0, await CountAuthorsNamedAsync(Database, "pb-load-"));
    }

    public static readonly TheoryData<string> Engines = new() { "dotnet", "locust" };

    /// <summary>
    /// --user-interval paces each user on both engines: 4 requests a user, one every 0.5 s, cannot end sooner than 1.5 s
    /// after the first (a bound the pacing guarantees, whatever the machine's speed), and every request is still counted;
    /// the report marks a step beyond the p99 bound. The floor (GET /baseline on REST's port, the engine's own cost) is
    /// sent and checked by either engine as a scenario is, and gRPC, whose port has no HTTP/1.1, has none.
    /// </summary>
    [Theory]
    [MemberData(nameof(Engines))]
    public async Task UsersPacedByAnIntervalTakeAtLeastTheirIntervals(string engine)
    {
        if (engine == "locust")
        {
            SkipUnlessLocust();
        }

        var results = Path.Combine(_work, "results");
        await using var command = CommandProcess.Start(
            "loadtests", "ProtocolBench.LoadTests.dll",
            "users", "--engine", engine, "--user-interval", "0.5", "--no-pin", "--ports", "auto", "--database", "sqlite",
            "--connection-string", Database, "--results", results, "--scenarios", "floor,search-11", "--protocols", "rest,grpc",
            "--transports", "http", "--users", "4", "--requests", "4", "--warmup", "1", "--warmup-total", "1", "--fail-on-errors", "--p99-bound", "0.001");

        await command.AssertExitsWithAsync(0, TimeSpan.FromMinutes(3));

        var cells = Csv(Path.Combine(results, "users.csv"));
        Assert.Equal("not applicable", Assert.Single(cells, c => c["scenario"] == "floor" && c["protocol"] == "Grpc")["status"]);
        foreach (var cell in cells.Where(c => c["status"] != "not applicable"))
        {
            Assert.Equal("16", cell["ok"]);
            Assert.True(double.Parse(cell["elapsed_s"], CultureInfo.InvariantCulture) >= 1.5, $"{cell["protocol"]}: {cell["elapsed_s"]} s");
        }

        var report = await File.ReadAllTextAsync(Path.Combine(results, "report.md"), Token);
        Assert.Contains("one every 0.5 s (constant pacing, --user-interval", report);
        Assert.Contains(engine == "locust" ? "| Client | Locust's users (--engine locust" : "| Client | dotnet (--client dotnet)", report);
        // A bound of 1 µs no request keeps: the first (and only) step is beyond it on both protocols.
        Assert.Matches(@"First step beyond the bound \(an error, or p99 over 0.001 ms; --p99-bound\), of 4 users: REST HTTP at 4 users \(p99 [\d.]+ ms\); gRPC HTTP at 4 users \(p99 [\d.]+ ms\)\.", report);
    }

    /// <summary>
    /// A worker killed mid-cell: the master misses its heartbeats, the cell is failed and named (not half-counted), the
    /// command exits 1, and nothing is left running: the master, the other worker and the services are stopped.
    /// </summary>
    [Fact]
    public async Task ALocustWorkerKilledMidCellFailsItsCellAndLeavesNothingRunning()
    {
        SkipUnlessLocust();
        SkipUnlessLinux();
        await using var command = CommandProcess.Start(
            "loadtests", "ProtocolBench.LoadTests.dll",
            "users", "--engine", "locust", "--locust-workers", "2", "--no-pin", "--ports", "auto", "--database", "sqlite",
            "--connection-string", Database, "--results", Path.Combine(_work, "results"), "--scenarios", "search-11", "--protocols", "rest",
            "--transports", "http", "--users", "4", "--requests", "100000", "--warmup", "1", "--warmup-total", "1");
        await command.WaitForLineAsync(line => line.Contains("Locust: 2 worker(s) connected", StringComparison.Ordinal), StartTimeout);
        // The services, Locust's master and its two workers.
        var children = ChildrenOf(command.Id);
        var workers = children.Where(p => p.CommandLine.Contains("-m locust", StringComparison.Ordinal)).ToList();
        Assert.True(workers.Count == 2, $"expected two workers among the command's processes: {string.Join("; ", children.Select(p => p.CommandLine))}");

        // The cell (400,000 requests) has started by now and lasts minutes.
        await Task.Delay(TimeSpan.FromSeconds(2), Token);
        Process.GetProcessById(workers[0].Pid).Kill();

        await command.AssertExitsWithAsync(1, TimeSpan.FromMinutes(2));
        Assert.Matches(@"search-11 REST HTTP ×4: failed: worker \S+ (left|stopped answering)", command.Output);
        await AssertAllGoneWithinAsync(children.ToDictionary(p => $"{p.Pid}: {p.CommandLine}", p => p.Pid), TimeSpan.FromSeconds(10));
        Assert.DoesNotMatch(@"✓ search-11 REST HTTP ×4", command.Output);
    }

    /// <summary>
    /// A worker of another host lost mid-cell fails that cell. The next cell starts a new master on the same port (the old
    /// one tells the workers left to quit); the workers started again with the command the load command printed join it,
    /// and that cell runs on the full count.
    /// </summary>
    [Fact]
    public async Task ALostWorkerOfAnotherHostStartedAgainRejoinsForTheNextCell()
    {
        SkipUnlessLocust();
        Assert.SkipWhen(WorkerHost.Unavailable() is not null, WorkerHost.Unavailable() ?? "");
        await using var host = await WorkerHost.CreateAsync();
        // Each cell lasts at least 5.5 s: 12 requests a user, one every 0.5 s.
        await using var command = CommandProcess.Start(
            "loadtests", "ProtocolBench.LoadTests.dll",
            "users", "--engine", "locust", "--locust-workers", $"{host.Address},{host.Address}", "--locust-port", "0", "--no-pin", "--ports", "auto",
            "--database", "sqlite", "--connection-string", Database, "--results", Path.Combine(_work, "results"), "--scenarios", "search-11",
            "--protocols", "rest,grpc", "--transports", "http", "--users", "4", "--requests", "12", "--user-interval", "0.5", "--warmup", "1", "--warmup-total", "1");
        var run = (await command.WaitForLineAsync(line => line.TrimStart().StartsWith("cd tools/stacks/locust && ", StringComparison.Ordinal), StartTimeout)).Trim();
        var lost = host.Start(run);
        host.Start(run);
        await command.WaitForLineAsync(line => line.Contains("Locust: 2 worker(s) connected", StringComparison.Ordinal), StartTimeout);

        await Task.Delay(TimeSpan.FromSeconds(2), Token);
        lost.Kill(entireProcessTree: true);
        await command.WaitForLineAsync(line => Regex.IsMatch(line, @"search-11 REST HTTP ×4: failed: worker \S+ (left|stopped answering)"), TimeSpan.FromMinutes(1));
        var waits = 0;
        await command.WaitForLineAsync(line => line.StartsWith("Locust: waiting up to", StringComparison.Ordinal) && ++waits == 2, TimeSpan.FromMinutes(1));
        host.Start(run);
        host.Start(run);

        await command.AssertExitsWithAsync(1, TimeSpan.FromMinutes(2));
        Assert.Matches(@"✓ search-11 gRPC HTTP ×4: \d+ req/s", command.Output);
        Assert.DoesNotMatch(@"✓ search-11 REST HTTP ×4", command.Output);
    }

    /// <summary>Without Debian's Locust the command says what is missing and the line that installs it, and exits 2 before it starts anything.</summary>
    [Fact]
    public async Task TheUsersStudyOnLocustWithoutLocustGivesItsInstallLine()
    {
        // A module named locust ahead of Debian's, which cannot be imported: to Python, Locust is missing.
        var standIn = Directory.CreateDirectory(Path.Combine(_work, "no-locust")).FullName;
        await File.WriteAllTextAsync(Path.Combine(standIn, "locust.py"), "raise ImportError(\"No module named 'locust' (the test's stand-in)\")\n", Token);
        await using var command = CommandProcess.Start(
            new Dictionary<string, string> { ["PYTHONPATH"] = standIn }, "loadtests", "ProtocolBench.LoadTests.dll",
            "users", "--engine", "locust", "--no-pin", "--results", Path.Combine(_work, "results"));

        await command.AssertExitsWithAsync(2, TimeSpan.FromMinutes(1));

        Assert.Contains("No module named 'locust' (the test's stand-in)", command.Output);
        Assert.Contains($"apt-get install {ClientStacks.DebianPackages("locust")}", command.Output);
        Assert.DoesNotContain("Starting the services", command.Output);
    }

    private static void SkipUnlessLocust()
    {
        var (versions, problem) = ClientStacks.AskVersions(ClientStacks.Python, [Path.Combine(LocustFolder, "master.py"), "--versions"]);
        Assert.SkipUnless(versions is not null, $"Debian's Locust cannot run here ({problem}): apt-get install {ClientStacks.DebianPackages("locust")}");
    }

    /// <summary>The processes whose parent is <paramref name="parent"/>, with their command lines (read from /proc).</summary>
    private static List<(int Pid, string CommandLine)> ChildrenOf(int parent)
    {
        var children = new List<(int, string)>();
        foreach (var folder in Directory.EnumerateDirectories("/proc"))
        {
            if (!int.TryParse(Path.GetFileName(folder), out var pid))
            {
                continue;
            }

            try
            {
                // stat: "pid (name) state ppid ...": the name may hold spaces, so the fields are read after its ')'.
                var stat = File.ReadAllText(Path.Combine(folder, "stat"));
                if (stat[(stat.LastIndexOf(')') + 2)..].Split(' ')[1] == parent.ToString(CultureInfo.InvariantCulture))
                {
                    children.Add((pid, File.ReadAllText(Path.Combine(folder, "cmdline")).Replace('\0', ' ')));
                }
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                // A process that ended meanwhile.
            }
        }

        return children;
    }

    /// <summary>A CSV file of the results folder, a dictionary a row (CsvHelper reads it, quoted fields and all).</summary>
    private static List<Dictionary<string, string>> Csv(string path)
    {
        var header = File.ReadLines(path).First().Split(',');
        using var csv = CsvHelper.CsvReader.FromFile(path, new CsvHelper.CsvReaderOptions());
        var rows = new List<Dictionary<string, string>>();
        while (csv.Read())
        {
            rows.Add(header.ToDictionary(name => name, csv.GetString));
        }

        return rows;
    }
}
