using System.Collections.Concurrent;
using System.Net;
using ProtocolBench.Shared.Clients;
using ProtocolBench.Shared.Clients.Launching;
using ProtocolBench.Shared.Domain.Data;
using ProtocolBench.Shared.Hosting;

namespace ProtocolBench.LoadTests;

/// <summary>
/// The services under test: started as separate Release processes (the benchmark command's launcher), or already
/// running elsewhere (--external). Watches for a service that dies: its protocol's cells stop, the others go on.
/// </summary>
public sealed class ServiceSession : IAsyncDisposable
{
    private readonly RunningServices? _running;
    private readonly ConcurrentDictionary<Protocol, string> _deaths = new();
    private readonly Dictionary<Protocol, CancellationTokenSource> _alive;
    private readonly Interruption _interruption;
    private volatile bool _stopping;

    private ServiceSession(
        RunningServices? running, ServiceAddresses addresses, DatabaseOptions? database, string description, Interruption interruption)
    {
        _running = running;
        Addresses = addresses;
        Database = database;
        Description = description;
        _interruption = interruption;
        _alive = Enum.GetValues<Protocol>().ToDictionary(p => p, _ => new CancellationTokenSource());
    }

    public ServiceAddresses Addresses { get; }

    /// <summary>The services' database, read directly by the nothing-lost check; null when it is not known (--external without --database).</summary>
    public DatabaseOptions? Database { get; }

    public string Description { get; }

    public bool External => _running is null;

    public IReadOnlyDictionary<Protocol, string> Deaths => _deaths;

    /// <summary>Cancelled when the protocol's service dies.</summary>
    public CancellationToken Alive(Protocol protocol) => _alive[protocol].Token;

    public static async Task<ServiceSession> StartAsync(
        LoadTestOptions options, string? serverCpus, Interruption interruption, Action<string> log)
    {
        IReadOnlyList<Protocol> protocols = options.Mode == Mode.DriverCheck ? [Protocol.Rest, Protocol.Grpc] : options.Protocols;
        if (options.External is { } host)
        {
            var loopback = host is "localhost" || (IPAddress.TryParse(host, out var ip) && IPAddress.IsLoopback(ip));
            var addresses = (options.Ports ?? new ServiceAddresses()) with { Host = host };
            addresses = addresses with { TlsHost = loopback ? "localhost" : host };
            var database = options.DatabaseGiven
                ? new DatabaseOptions { Provider = options.Database, ConnectionString = options.ConnectionString }
                : null;
            foreach (var protocol in protocols)
            {
                if (await ProbeAsync(addresses, protocol, interruption.Token) is { } problem)
                {
                    throw new LaunchException($"--external {host}: {Name(protocol)} does not answer: {problem}");
                }
            }

            log($"external services on {host}: {string.Join(", ", protocols.Select(Name))} healthy");
            return new ServiceSession(null, addresses, database, $"external, on {host} (not started by this run)", interruption);
        }

        ProjectCertificate.EnsureExists();
        var connection = options.ConnectionString;
        if (options.Database == DatabaseProvider.Sqlite && string.IsNullOrWhiteSpace(connection))
        {
            // Its own file: the create scenario's authors never land in the benchmark command's database.
            var file = Path.Combine(Path.GetDirectoryName(DatabaseOptions.DefaultSqlitePath)!, "protocolbench-loadtests.db");
            connection = $"Data Source={file}";
        }

        var launch = new LaunchOptions
        {
            Addresses = options.Ports ?? new ServiceAddresses(),
            Services = ServiceSpec.All.Where(s => protocols.Contains(s.Protocol)).ToList(),
            Provider = options.Database,
            ConnectionString = connection,
            ServerCpus = serverCpus,
        };
        var running = await ServiceLauncher.StartAsync(launch, log, interruption.Token);
        var db = new DatabaseOptions { Provider = options.Database, ConnectionString = connection };
        var pinned = serverCpus is null ? "not pinned" : $"pinned to CPU {serverCpus}";
        var session = new ServiceSession(
            running,
            launch.Addresses,
            db,
            $"started by this run ({launch.Configuration}): {string.Join(", ", running.Processes.Select(p => $"{p.Spec.Name} pid {p.Id}"))}; {pinned}",
            interruption);
        foreach (var process in running.Processes)
        {
            _ = session.WatchAsync(process, log);
        }

        return session;
    }

    /// <summary>For external services: is this protocol's service still answering? (Called after a cell with errors.)</summary>
    public async Task CheckExternalAsync(Protocol protocol, Action<string> log)
    {
        if (!External || _deaths.ContainsKey(protocol) || _interruption.Requested)
        {
            return;
        }

        if (await ProbeAsync(Addresses, protocol, CancellationToken.None) is { } problem)
        {
            MarkDead(protocol, $"{Name(protocol)} on {Addresses.Host} stopped answering ({problem})", log);
        }
    }

    public async Task StopAsync()
    {
        _stopping = true;
        if (_running is not null)
        {
            await _running.StopAsync();
        }
    }

    public async ValueTask DisposeAsync()
    {
        await StopAsync();
        foreach (var cts in _alive.Values)
        {
            cts.Dispose();
        }
    }

    public static string Name(Protocol protocol) => protocol switch
    {
        Protocol.Rest => "REST",
        Protocol.Grpc => "gRPC",
        _ => "GraphQL",
    };

    private async Task WatchAsync(ServiceProcess process, Action<string> log)
    {
        await process.Exited;
        // Ctrl+C reaches the whole process group, so the services may stop a moment before the driver notices.
        await Task.Delay(TimeSpan.FromSeconds(1));
        if (_stopping || _interruption.Requested)
        {
            return;
        }

        var tail = process.Tail().Split('\n').TakeLast(5);
        MarkDead(
            process.Spec.Protocol,
            $"{process.Spec.Name} (pid {process.Id}) died during the run, exit code {process.ExitCode}",
            log,
            $"its last output:\n  {string.Join("\n  ", tail)}");
    }

    private void MarkDead(Protocol protocol, string message, Action<string> log, string? detail = null)
    {
        if (_deaths.TryAdd(protocol, message))
        {
            log(detail is null ? message : $"{message}; {detail}");
            _alive[protocol].Cancel();
        }
    }

    private static async Task<string?> ProbeAsync(ServiceAddresses addresses, Protocol protocol, CancellationToken cancellationToken)
    {
        var port = protocol switch
        {
            Protocol.Rest => addresses.RestHttp,
            Protocol.Grpc => addresses.GrpcHttp,
            _ => addresses.GraphQLHttp,
        };
        using var http = new HttpClient(new SocketsHttpHandler { UseProxy = false }) { Timeout = TimeSpan.FromSeconds(2) };
        using var request = new HttpRequestMessage(HttpMethod.Get, $"http://{addresses.Host}:{port}/healthz")
        {
            Version = protocol == Protocol.Grpc ? HttpVersion.Version20 : HttpVersion.Version11,
            VersionPolicy = HttpVersionPolicy.RequestVersionExact,
        };
        try
        {
            using var response = await http.SendAsync(request, cancellationToken);
            return response.IsSuccessStatusCode ? null : $"GET {request.RequestUri} → HTTP {(int)response.StatusCode}";
        }
        catch (Exception e) when (e is HttpRequestException or TaskCanceledException && !cancellationToken.IsCancellationRequested)
        {
            return $"GET {request.RequestUri}: {e.Message}";
        }
    }
}
