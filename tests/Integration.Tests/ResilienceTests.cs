using System.Collections.Concurrent;
using System.Text.RegularExpressions;
using Grpc.Health.V1;
using Grpc.Net.Client;
using Npgsql;

namespace ProtocolBench.Integration.Tests;

/// <summary>Concurrent writers (fault table row 31) on each database: no lost and no duplicated authors.</summary>
public abstract class ConcurrentWriteTests(ServicesFixture fixture)
{
    private const int Users = 50;
    private const int PerUser = 4;

    public static readonly TheoryData<Protocol> Protocols = [.. Display.Protocols];

    [Theory]
    [MemberData(nameof(Protocols))]
    public async Task FiftyUsersCreatingLoseAndDuplicateNothing(Protocol protocol)
    {
        var token = TestContext.Current.CancellationToken;
        var client = fixture.Client(protocol, Transport.Http);
        var marker = $"cw-{protocol}-{Guid.NewGuid():N}"[..24];
        var before = await fixture.CountRowsAsync();
        var acknowledged = new ConcurrentBag<(int Id, string Name)>();
        var failures = new ConcurrentBag<string>();
        await Task.WhenAll(Enumerable.Range(0, Users).Select(async user =>
        {
            for (var n = 0; n < PerUser; n++)
            {
                var name = $"{marker}-{user}-{n}";
                try
                {
                    var author = await client.CreateAuthorAsync(name, "Concurrency", token);
                    acknowledged.Add((author.Id, author.Name));
                }
                catch (ProtocolClientException e)
                {
                    failures.Add($"{name}: {e.Code} {e.Message}");
                }
            }
        }));

        Assert.Empty(failures);
        await using var db = fixture.OpenDatabase();
        var stored = await db.Authors.Where(a => a.Name.StartsWith(marker)).Select(a => new { a.Id, a.Name }).ToListAsync(token);
        Assert.Equal(Users * PerUser, acknowledged.Count);
        Assert.Equal(acknowledged.Select(a => a.Id).Order(), stored.Select(a => a.Id).Order());
        Assert.Equal(acknowledged.Select(a => a.Name).Order(StringComparer.Ordinal), stored.Select(a => a.Name).Order(StringComparer.Ordinal));
        Assert.Equal(stored.Count, stored.Select(a => a.Name).Distinct().Count());
        Assert.Equal((before.Authors + (Users * PerUser), before.Books), await fixture.CountRowsAsync());

        await db.Authors.Where(a => a.Name.StartsWith(marker)).ExecuteDeleteAsync(token);
        Assert.Equal(before, await fixture.CountRowsAsync());
    }
}

[Collection(SqliteCollection.Name)]
public sealed class ConcurrentWritesOnSqliteTests(SqliteServices fixture) : ConcurrentWriteTests(fixture);

[Collection(PostgresCollection.Name)]
public sealed class ConcurrentWritesOnPostgresTests(PostgresServices fixture) : ConcurrentWriteTests(fixture);

/// <summary>Fault table row 33: PostgreSQL goes away mid-run and comes back; no service restarts.</summary>
[Collection(PostgresCollection.Name)]
public sealed class DatabaseOutageOnPostgresTests(PostgresServices shared)
{
    [Fact]
    public async Task ServicesFailFastWhileTheDatabaseIsDownAndRecoverWithoutRestart()
    {
        shared.EnsureAvailable();
        var token = TestContext.Current.CancellationToken;
        var real = new NpgsqlConnectionStringBuilder(Environment.GetEnvironmentVariable(PostgresServices.Variable));
        await using var proxy = new TcpProxy(new IPEndPoint(IPAddress.Loopback, real.Port));
        proxy.Start();
        var viaProxy = new NpgsqlConnectionStringBuilder(real.ConnectionString) { Port = proxy.Port, Database = "protocolbench_outage", Timeout = 3 };
        await using var services = await ServiceLauncher.StartAsync(new LaunchOptions
        {
            Addresses = ServiceAddresses.AnyFree,
            Provider = DatabaseProvider.PostgreSQL,
            ConnectionString = viaProxy.ConnectionString,
        }, cancellationToken: token);
        var addresses = services.Addresses;
        var pids = services.Processes.Select(p => p.Id).ToList();
        var options = new ClientOptions { Addresses = addresses, CallTimeout = TimeSpan.FromSeconds(20) };
        var clients = ProtocolClients.AllCombinations.Where(c => c.Transport == Transport.Http)
            .Select(c => ProtocolClients.Create(c.Protocol, c.Transport, options)).ToList();
        using var http = new HttpClient();
        using var grpc = GrpcChannel.ForAddress(addresses.BaseUri(Protocol.Grpc, Transport.Http));
        var health = new Health.HealthClient(grpc);
        try
        {
            foreach (var client in clients)
            {
                Assert.Equal(11, (await client.SearchAuthorsAsync("Author - 1000", null, token)).Count);
            }

            proxy.Stop();
            foreach (var client in clients)
            {
                var watch = Stopwatch.StartNew();
                var error = await Assert.ThrowsAsync<ProtocolClientException>(() => client.SearchAuthorsAsync("Author - 1000", null, token));
                Assert.Equal("UNAVAILABLE", error.Code);
                Assert.InRange(watch.Elapsed.TotalSeconds, 0, 10);
            }

            Assert.Equal(HttpStatusCode.ServiceUnavailable, (await http.GetAsync($"http://127.0.0.1:{addresses.RestHttp}/healthz", token)).StatusCode);
            Assert.Equal(HttpStatusCode.ServiceUnavailable, (await http.GetAsync($"http://127.0.0.1:{addresses.GraphQLHttp}/healthz", token)).StatusCode);
            Assert.Equal(HttpStatusCode.ServiceUnavailable, (await http.GetAsync($"http://127.0.0.1:{addresses.SignalRHttp}/healthz", token)).StatusCode);
            var status = await health.CheckAsync(new HealthCheckRequest(), deadline: DateTime.UtcNow.AddSeconds(15), cancellationToken: token);
            Assert.Equal(HealthCheckResponse.Types.ServingStatus.NotServing, status.Status);
            Assert.Equal(int.MaxValue, await clients[0].GetIntMaxAsync(token));

            proxy.Start();
            foreach (var client in clients)
            {
                await EventuallyAsync(async () => Assert.Equal(11, (await client.SearchAuthorsAsync("Author - 1000", null, token)).Count), token);
            }

            await EventuallyAsync(async () => Assert.Equal(HttpStatusCode.OK, (await http.GetAsync($"http://127.0.0.1:{addresses.RestHttp}/healthz", token)).StatusCode), token);
            var back = await health.CheckAsync(new HealthCheckRequest(), deadline: DateTime.UtcNow.AddSeconds(15), cancellationToken: token);
            Assert.Equal(HealthCheckResponse.Types.ServingStatus.Serving, back.Status);
            Assert.Equal(pids, services.Processes.Select(p => p.Id));
            Assert.All(services.Processes, p => Assert.False(p.HasExited));
        }
        finally
        {
            foreach (var client in clients)
            {
                await client.DisposeAsync();
            }
        }
    }

    private static async Task EventuallyAsync(Func<Task> check, CancellationToken token)
    {
        var deadline = DateTime.UtcNow.AddSeconds(30);
        while (true)
        {
            try
            {
                await check();
                return;
            }
            catch (Exception) when (DateTime.UtcNow < deadline)
            {
                await Task.Delay(500, token);
            }
        }
    }
}

/// <summary>How services start and stop (fault table rows 39, 42, 43).</summary>
public sealed class LauncherTests
{
    [Fact]
    public async Task APortAlreadyInUseIsNamed()
    {
        using var squatter = new System.Net.Sockets.TcpListener(IPAddress.Loopback, 0);
        squatter.Start();
        var busyPort = ((IPEndPoint)squatter.LocalEndpoint).Port;
        var options = SingleRest() with { Addresses = new ServiceAddresses(RestHttp: busyPort, RestHttps: 0) };
        var error = await Assert.ThrowsAsync<LaunchException>(() => ServiceLauncher.StartAsync(options, cancellationToken: Token));
        Assert.Contains($"127.0.0.1:{busyPort} (Rest.Api HTTP) already in use", error.Message);

        // Started directly (not through the launcher's pre-check) the service itself says which port and exits non-zero.
        using var service = ServiceProcess.Start(ServiceSpec.All[0], options);
        await service.Exited.WaitAsync(TimeSpan.FromSeconds(60), Token);
        Assert.Equal(3, service.ExitCode);
        Assert.Contains($"127.0.0.1:{busyPort}", service.Tail());
    }

    [Fact]
    public async Task APortTakenAfterTheLaunchersCheckIsNamed()
    {
        // Bound but not listening: the launcher's check (a connect) finds the port free, the service's bind does not; as
        // when another process takes the port in the moment between the check and the service's start. The squatter is
        // perl (Debian's perl-base is always there): a .NET socket has SO_REUSEADDR, and two such may share an unlistened port.
        using var squatter = Process.Start(new ProcessStartInfo("perl",
        [
            "-MSocket", "-e",
            """socket(S, PF_INET, SOCK_STREAM, 0) or die; bind(S, sockaddr_in(0, inet_aton("127.0.0.1"))) or die; my ($p) = sockaddr_in(getsockname(S)); $| = 1; print "$p\n"; <STDIN>""",
        ])
        { RedirectStandardInput = true, RedirectStandardOutput = true })!;
        var busyPort = int.Parse((await squatter.StandardOutput.ReadLineAsync(Token))!);
        var options = SingleRest() with { Addresses = new ServiceAddresses(RestHttp: 0, RestHttps: busyPort) };
        var error = await Assert.ThrowsAsync<LaunchException>(() => ServiceLauncher.StartAsync(options, cancellationToken: Token));
        Assert.StartsWith($"Rest.Api could not listen on https://127.0.0.1:{busyPort}: the port is in use by another process", error.Message);
        squatter.StandardInput.Close();
        await squatter.WaitForExitAsync(Token);
    }

    [Fact]
    public async Task ServicesOnAnyFreePortReportThePortsTheyBound()
    {
        await using var services = await ServiceLauncher.StartAsync(SingleRest(), cancellationToken: Token);
        var (http, https) = services.Addresses.Ports(Protocol.Rest);
        Assert.NotEqual(0, http);
        Assert.NotEqual(0, https);
        Assert.NotEqual(http, https);
        Assert.Equal((http, https), services.Processes[0].Ports);
        Assert.Null(await HealthProbe.ProblemAsync(services.Addresses, Protocol.Rest, TimeSpan.FromSeconds(10), Token));
    }

    [Fact]
    public async Task MissingPayloadFilesMakeTheServiceUnhealthyNotBroken()
    {
        var options = SingleRest() with { Settings = new Dictionary<string, string> { ["Payloads:Directory"] = "/nonexistent/fixtures" }, StartupTimeout = TimeSpan.FromSeconds(12) };
        var error = await Assert.ThrowsAsync<LaunchException>(() => ServiceLauncher.StartAsync(options, cancellationToken: Token));
        Assert.Contains("did not become healthy", error.Message);
        Assert.Contains("payload-files", error.Message);
        // The unhealthy service was stopped again, not left behind.
        var pid = int.Parse(Regex.Match(error.Message, @"^Rest\.Api \(pid (\d+)\) did not become healthy").Groups[1].Value);
        Assert.False(Processes.IsRunning(pid), $"The unhealthy service (pid {pid}) is still running.");
    }

    [Fact]
    public async Task ServicesStopWhenTheirLifelineCloses()
    {
        var options = SingleRest();
        var services = await ServiceLauncher.StartAsync(options, cancellationToken: Token);
        var process = services.Processes[0];
        var pid = process.Id;
        Assert.NotEmpty(ServiceLauncher.ListeningPorts(options with { Addresses = services.Addresses }));
        var watch = Stopwatch.StartNew();
        await services.StopAsync();
        Assert.True(process.HasExited);
        Assert.Equal(0, process.ExitCode);
        Assert.InRange(watch.Elapsed.TotalSeconds, 0, 14);
        Assert.False(Processes.IsRunning(pid));
    }

    [Fact]
    public void PoolSizesFitPostgres()
    {
        // Every service, each at most DefaultPostgresPoolSize connections, under max_connections 100 less 3 reserved.
        Assert.True(ServiceSpec.All.Count * DatabaseOptions.DefaultPostgresPoolSize <= 97);
        var pg = new NpgsqlConnectionStringBuilder(new DatabaseOptions { Provider = DatabaseProvider.PostgreSQL, ConnectionString = "Host=x;Database=y" }.EffectiveConnectionString);
        Assert.Equal(DatabaseOptions.DefaultPostgresPoolSize, pg.MaxPoolSize);
        Assert.Equal(5, pg.Timeout);
        Assert.Equal(DatabaseOptions.DefaultCommandTimeoutSeconds, pg.CommandTimeout);
    }

    private static LaunchOptions SingleRest() => new()
    {
        Services = [ServiceSpec.All[0]],
        Addresses = ServiceAddresses.AnyFree,
        ConnectionString = $"Data Source={Path.Combine(Path.GetTempPath(), $"protocolbench-launcher-{Guid.NewGuid():N}.db")}",
        StartupTimeout = TimeSpan.FromSeconds(120),
    };
}

/// <summary>Row 35 as policy: no code in the repository may accept any certificate.</summary>
public sealed class CertificatePolicyTests
{
    // Each pattern is written in two pieces so that this file, which is scanned too, never spells one out whole.
    private static readonly Regex AcceptsAnyCertificate = new(string.Join('|',
        "Dangerous" + "AcceptAnyServerCertificateValidator",
        "ServerCertificate" + "CustomValidationCallback",
        "RemoteCertificate" + @"ValidationCallback\s*=",
        "Certificate" + @"ValidationCallback\s*=\s*\([^)]*\)\s*=>\s*true",
        @"curl\s.*\s-" + @"k\b",
        "--in" + "secure",
        "reject" + @"Unauthorized\s*:\s*false"));

    [Fact]
    public void NoCodeAcceptsAnyCertificate()
    {
        var root = ProjectPaths.RootOrCurrent;
        var offenders = Directory.EnumerateFiles(root, "*", SearchOption.AllDirectories)
            .Where(f => f.EndsWith(".cs", StringComparison.Ordinal) || f.EndsWith(".mjs", StringComparison.Ordinal) || f.EndsWith(".sh", StringComparison.Ordinal) || f.EndsWith(".js", StringComparison.Ordinal) || Path.GetFileName(f) == "run")
            .Where(f => !f.Contains($"{Path.DirectorySeparatorChar}bin{Path.DirectorySeparatorChar}") && !f.Contains($"{Path.DirectorySeparatorChar}obj{Path.DirectorySeparatorChar}")
                        && !f.Contains("node_modules") && !f.Contains($"{Path.DirectorySeparatorChar}.git{Path.DirectorySeparatorChar}"))
            .SelectMany(f => File.ReadLines(f).Select((line, i) => (f, i, line)))
            .Where(x => AcceptsAnyCertificate.IsMatch(x.line))
            .Select(x => $"{Path.GetRelativePath(root, x.f)}:{x.i + 1}: {x.line.Trim()}")
            .ToList();
        Assert.Empty(offenders);
    }
}
