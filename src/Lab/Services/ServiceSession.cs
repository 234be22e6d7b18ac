using System.Collections.Concurrent;
using ProtocolBench.Lab.CommandLine;
using ProtocolBench.Lab.Conditions;
using ProtocolBench.Lab.Network;

namespace ProtocolBench.Lab.Services;

/// <summary>
/// The services a run measures: started here as separate processes (and stopped again whatever happens), or already
/// running elsewhere (--external). Watches them: when one dies, its protocol's cells stop and the others go on.
/// </summary>
public sealed class ServiceSession : IAsyncDisposable
{
    private readonly LaunchOptions? _launch;
    private readonly HashSet<ServiceProcess> _retired = [];
    private RunningServices? _running;
    private readonly ConcurrentDictionary<Protocol, string> _deaths = new();
    private readonly Dictionary<Protocol, CancellationTokenSource> _alive = Enum.GetValues<Protocol>().ToDictionary(p => p, _ => new CancellationTokenSource());
    private readonly Action<string> _log;
    private readonly CancellationToken _stopping;
    private volatile bool _stopped;
    private Task? _stop;

    private ServiceSession(
        RunningServices? running, LaunchOptions? launch, ServiceAddresses addresses, DatabaseOptions? database, string description,
        Action<string> log, CancellationToken stopping)
    {
        _running = running;
        _launch = launch;
        Addresses = addresses;
        Database = database;
        Description = description;
        _log = log;
        _stopping = stopping;
        foreach (var process in running?.Processes ?? [])
        {
            _ = WatchAsync(process);
        }

        if (running is not null)
        {
            AppDomain.CurrentDomain.ProcessExit += KillOnExit;
        }
    }

    public ServiceAddresses Addresses { get; }

    /// <summary>The services' database, when known (it is not for --external unless the command was told).</summary>
    public DatabaseOptions? Database { get; }

    public string Description { get; }

    /// <summary>The database as a report's setup names it (<see cref="DatabaseSetup.Of"/>).</summary>
    public string? DatabaseSetup => Services.DatabaseSetup.Of(Database);

    public bool External => _running is null;

    /// <summary>The protocols whose service died, with what was seen.</summary>
    public IReadOnlyDictionary<Protocol, string> Deaths => _deaths;

    /// <summary>Cancelled when the protocol's service dies.</summary>
    public CancellationToken Alive(Protocol protocol) => _alive[protocol.Service()].Token;

    /// <summary>The own account of the service that serves <paramref name="protocol"/> (<see cref="Costs.ServiceMeter"/>); null for --external services or when it cannot be read.</summary>
    public Costs.ServiceMeter? Meter(Protocol protocol) =>
        _running?.Processes.FirstOrDefault(p => p.Spec.Protocol == protocol.Service() && !p.HasExited)?.Meter;

    /// <summary>The process of the service that serves <paramref name="protocol"/>; null for --external services or a service that died.</summary>
    public int? ProcessId(Protocol protocol) =>
        _running?.Processes.FirstOrDefault(p => p.Spec.Protocol == protocol.Service() && !p.HasExited)?.Id;

    /// <summary>The running services' process ids; none for --external.</summary>
    public IReadOnlyList<int> ProcessIds => _running?.Processes.Where(p => !p.HasExited).Select(p => p.Id).ToList() ?? [];

    /// <summary>Why a protocol's service cannot be measured any more, or null.</summary>
    public string? Problem(Protocol protocol) => _deaths.GetValueOrDefault(protocol.Service());

    /// <summary>
    /// What both commands do: with --external, check that the services of <paramref name="protocols"/> answer there;
    /// otherwise make the certificate if there is none and start them on the settings' ports and database, pinned
    /// where the settings say.
    /// </summary>
    public static async Task<ServiceSession> OpenAsync(
        CommonSettings settings, IReadOnlyList<Protocol> protocols, Action<string> log, CancellationToken stopping)
    {
        if (settings.External is not null)
        {
            return await ConnectAsync(settings.Addresses, protocols, settings.Database, log, stopping);
        }

        log(ProjectCertificate.Ensure());
        var network = settings.Conditions.Network;
        var link = network.IsLoopback ? null : await ShapedLink.CreateAsync(network, log, stopping);
        try
        {
            var session = await StartAsync(
                new LaunchOptions
                {
                    Addresses = link is null ? settings.Addresses : settings.Addresses with { Host = link.ServiceAddress },
                    Services = ServiceSpec.Serving(protocols),
                    Provider = settings.Database!.Provider,
                    ConnectionString = settings.Database.ConnectionString,
                    ServerCpus = settings.Pinning.ServerCpus,
                    PromoteHotCodeEarly = true,
                    MeterServices = true,
                    Settings = settings.Conditions.ServiceSettings,
                    NetworkNamespace = link?.Namespace,
                },
                log,
                stopping);
            session.Link = link;
            return session;
        }
        catch
        {
            if (link is not null)
            {
                await link.DisposeAsync();
            }

            throw;
        }
    }

    /// <summary>The shaped link the services are reached over (--network), removed when the session is disposed; null on loopback.</summary>
    public ShapedLink? Link { get; private set; }

    /// <summary>The run's conditions as they were applied: the link as made and, where the delayer delays it, what it did so far.</summary>
    public async Task<RunConditions> AppliedAsync(RunConditions asked) =>
        Link is null ? asked : asked with { NetworkLink = await Link.DescribeMeasuredAsync() };

    /// <summary>Starts the services of <paramref name="launch"/>, each on its ports, and waits until all are healthy.</summary>
    public static async Task<ServiceSession> StartAsync(LaunchOptions launch, Action<string> log, CancellationToken stopping)
    {
        var database = new DatabaseOptions { Provider = launch.Provider, ConnectionString = launch.ConnectionString };
        log($"Starting the services ({launch.Configuration}, {database.Describe()}) ...");
        var running = await ServiceLauncher.StartAsync(launch, line => log($"  {line}"), stopping);
        var names = string.Join(", ", running.Processes.Select(p => $"{p.Spec.Name} (pid {p.Id})"));
        var pinned = (launch.ServerCpus is null ? "not pinned" : $"pinned to CPU {launch.ServerCpus}") +
                     (launch.PromoteHotCodeEarly ? $", hot code promoted early (DOTNET_TC_CallCountingDelayMs={LaunchOptions.CallCountingDelayMs})" : "");
        // Restarts reuse the ports bound now (kernel-chosen ones with --ports auto), so the clients' addresses stay true.
        return new ServiceSession(
            running, launch with { Addresses = running.Addresses }, running.Addresses, database,
            $"{names}: {launch.Configuration} builds started by this run on {launch.Addresses.Host}, {pinned}", log, stopping);
    }

    /// <summary>Checks that the services of <paramref name="protocols"/> answer on the addresses' host; starts nothing.</summary>
    public static async Task<ServiceSession> ConnectAsync(
        ServiceAddresses addresses, IReadOnlyList<Protocol> protocols, DatabaseOptions? database, Action<string> log, CancellationToken stopping)
    {
        log($"Using the services already running on {addresses.Host} (--external) ...");
        foreach (var spec in ServiceSpec.Serving(protocols))
        {
            if (await HealthProbe.ProblemAsync(addresses, spec.Protocol, TimeSpan.FromSeconds(10), stopping) is { } problem)
            {
                throw new LaunchException(
                    $"{spec.Name} does not answer on {addresses.Host}: {problem}\n" +
                    $"Start it there with: dotnet run -c Release --project src/{spec.Name} -- --Endpoints:Address=0.0.0.0");
            }

            log($"  {spec.Name} healthy on {addresses.Host}");
        }

        return new ServiceSession(null, null, addresses, database, $"already running on {addresses.Host} (--external): started and stopped elsewhere", log, stopping);
    }

    /// <summary>For external services: is this protocol's service still answering? (Called after a cell with errors.)</summary>
    public async Task CheckExternalAsync(Protocol protocol)
    {
        protocol = protocol.Service();
        if (!External || _deaths.ContainsKey(protocol) || _stopping.IsCancellationRequested)
        {
            return;
        }

        if (await HealthProbe.ProblemAsync(Addresses, protocol, TimeSpan.FromSeconds(2), CancellationToken.None) is { } problem)
        {
            MarkDead(protocol, $"{Display.Of(protocol)} on {Addresses.Host} stopped answering ({problem})");
        }
    }

    /// <summary>
    /// Stops the services this session started and starts them again on the same ports and database, so that the next
    /// measurements meet a new process (JIT state, memory layout, pools); returns the seconds to healthy. Does nothing
    /// for --external services (returns null). A protocol whose service died stays marked dead.
    /// </summary>
    public async Task<double?> RestartAsync()
    {
        if (_launch is null || _running is null || _stopped)
        {
            return null;
        }

        lock (_retired)
        {
            _retired.UnionWith(_running.Processes);
        }

        await _running.StopAsync();
        var watch = System.Diagnostics.Stopwatch.StartNew();
        var running = await ServiceLauncher.StartAsync(_launch, null, _stopping);
        lock (_alive)
        {
            if (!_stopped)
            {
                _running = running;
            }
        }

        if (_running != running)
        {
            // Stopped (Ctrl+C, SIGTERM) while starting: these new processes are nobody else's to stop.
            await running.StopAsync();
            throw new OperationCanceledException("The run was stopped while the services restarted.");
        }

        foreach (var process in running.Processes)
        {
            _ = WatchAsync(process);
        }

        return watch.Elapsed.TotalSeconds;
    }

    /// <summary>Stops the services this session started (once; every caller waits for the same stop).</summary>
    public Task StopAsync()
    {
        _stopped = true;
        lock (_alive)
        {
            return _stop ??= _running?.StopAsync() ?? Task.CompletedTask;
        }
    }

    /// <summary>Last resort on process exit: kill without waiting (the stdin lifeline would stop them a moment later anyway).</summary>
    public void Kill()
    {
        _stopped = true;
        foreach (var process in _running?.Processes ?? [])
        {
            process.Kill();
        }
    }

    public async ValueTask DisposeAsync()
    {
        AppDomain.CurrentDomain.ProcessExit -= KillOnExit;
        try
        {
            await StopAsync();
        }
        finally
        {
            // Even when a service would not stop: the namespace goes (its processes with it once they end).
            if (Link is not null)
            {
                await Link.DisposeAsync();
            }

            foreach (var alive in _alive.Values)
            {
                alive.Dispose();
            }
        }
    }

    private void KillOnExit(object? sender, EventArgs e) => Kill();

    private async Task WatchAsync(ServiceProcess process)
    {
        await process.Exited;
        // Ctrl+C reaches the whole process group, so the services may stop a moment before this program notices.
        await Task.Delay(TimeSpan.FromSeconds(1));
        bool retired;
        lock (_retired)
        {
            retired = _retired.Contains(process);
        }

        if (_stopped || _stopping.IsCancellationRequested || retired)
        {
            return;
        }

        var tail = process.Tail().Split('\n').TakeLast(5);
        MarkDead(
            process.Spec.Protocol,
            $"{process.Spec.Name} (pid {process.Id}) died during the run, exit code {process.ExitCode}",
            $"its remaining cells fail, the others go on; its last output:\n  {string.Join("\n  ", tail)}");
    }

    private void MarkDead(Protocol protocol, string message, string? detail = null)
    {
        if (_deaths.TryAdd(protocol, message))
        {
            _log(detail is null ? message : $"{message}; {detail}");
            _alive[protocol].Cancel();
        }
    }
}
