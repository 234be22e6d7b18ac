using System.Net;
using ProtocolBench.Shared.Clients;
using ProtocolBench.Shared.Clients.Launching;
using ProtocolBench.Shared.Domain.Data;

namespace ProtocolBench.Benchmarks.Cli;

/// <summary>The services a run measures: started here (and stopped again), or already running elsewhere (--external).</summary>
public sealed class ServiceSession
{
    private readonly RunningServices? _running;
    private volatile bool _stopping;

    private ServiceSession(RunningServices? running, string description)
    {
        _running = running;
        Description = description;
        if (running is not null)
        {
            _ = WatchAsync(running);
        }
    }

    public string Description { get; }

    /// <summary>The service that exited while the suite was running, if one did.</summary>
    public ServiceProcess? Dead { get; private set; }

    public static async Task<ServiceSession> StartAsync(LaunchOptions options, CancellationToken cancellationToken)
    {
        Console.WriteLine($"Starting the services ({options.Configuration}, {Describe(options)}) ...");
        var running = await ServiceLauncher.StartAsync(options, line => Console.WriteLine($"  {line}"), cancellationToken);
        var names = string.Join(", ", running.Processes.Select(p => $"{p.Spec.Name} (pid {p.Id})"));
        return new ServiceSession(running, $"{names}: {options.Configuration} builds started by this run on {options.Addresses.Host}");
    }

    /// <summary>Checks that the three services answer on HOST; starts nothing.</summary>
    public static async Task<ServiceSession> ConnectAsync(ServiceAddresses addresses, CancellationToken cancellationToken)
    {
        Console.WriteLine($"Using the services already running on {addresses.Host} (--external) ...");
        var launch = new LaunchOptions { Addresses = addresses };
        using var client = new HttpClient(new SocketsHttpHandler { UseProxy = false, ConnectTimeout = TimeSpan.FromSeconds(5) })
        {
            Timeout = TimeSpan.FromSeconds(10),
        };
        foreach (var spec in ServiceSpec.All)
        {
            var (http, _) = launch.Ports(spec.Protocol);
            var uri = new Uri($"http://{addresses.Host}:{http}/healthz");
            using var request = new HttpRequestMessage(HttpMethod.Get, uri)
            {
                Version = spec.Protocol == Protocol.Grpc ? HttpVersion.Version20 : HttpVersion.Version11,
                VersionPolicy = HttpVersionPolicy.RequestVersionExact,
            };
            try
            {
                using var response = await client.SendAsync(request, cancellationToken);
                var body = await response.Content.ReadAsStringAsync(cancellationToken);
                if (!response.IsSuccessStatusCode)
                {
                    throw new LaunchException($"{spec.Name} at {uri} is not healthy: HTTP {(int)response.StatusCode} {body}");
                }

                Console.WriteLine($"  {spec.Name} healthy at {uri}");
            }
            catch (Exception e) when (e is HttpRequestException or TaskCanceledException && !cancellationToken.IsCancellationRequested)
            {
                throw new LaunchException(
                    $"{spec.Name} does not answer at {uri}: {e.Message}\n" +
                    $"Start it on {addresses.Host} with: dotnet run -c Release --project src/{spec.Name} -- --Endpoints:Address=0.0.0.0");
            }
        }

        return new ServiceSession(null, $"already running on {addresses.Host} (--external): started and stopped elsewhere");
    }

    /// <summary>Why a protocol's service cannot be measured any more, or null.</summary>
    public string? Problem(Protocol protocol) =>
        Dead is { } dead && dead.Spec.Protocol == protocol ? $"{dead.Spec.Name} exited (code {dead.ExitCode}) during the run" : null;

    public async Task StopAsync()
    {
        _stopping = true;
        if (_running is not null)
        {
            await _running.StopAsync();
        }
    }

    /// <summary>Last resort on process exit: kill without waiting (the stdin lifeline would stop them a moment later anyway).</summary>
    public void Kill()
    {
        _stopping = true;
        foreach (var process in _running?.Processes ?? [])
        {
            process.Kill();
        }
    }

    private async Task WatchAsync(RunningServices running)
    {
        var exited = await running.FirstExitAsync();
        if (_stopping)
        {
            return;
        }

        Dead = exited;
        await Console.Error.WriteLineAsync(
            $"\n{exited.Spec.Name} exited with code {exited.ExitCode} during the run: its remaining cells fail, the others go on. " +
            $"Its last output:\n{exited.Tail()}\n");
    }

    private static string Describe(LaunchOptions options) =>
        new DatabaseOptions { Provider = options.Provider, ConnectionString = options.ConnectionString }.Describe();
}
