using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using ProtocolBench.Shared.Clients;

namespace ProtocolBench.Lab.Services;

/// <summary>
/// Starts the services as separate processes, waits for each /healthz, and stops them again.
/// Used by the benchmark and load-test commands and by the tests: one way to run the services.
/// </summary>
public sealed class RunningServices : IAsyncDisposable
{
    private static readonly TimeSpan StopGrace = TimeSpan.FromSeconds(15);
    private readonly LaunchOptions _options;
    private int _stopped;

    internal RunningServices(LaunchOptions options, IReadOnlyList<ServiceProcess> processes)
    {
        _options = options;
        Processes = processes;
    }

    public IReadOnlyList<ServiceProcess> Processes { get; }

    public async Task StopAsync()
    {
        if (Interlocked.Exchange(ref _stopped, 1) == 1)
        {
            return;
        }

        await Task.WhenAll(Processes.Select(p => p.StopAsync(StopGrace)));
        foreach (var process in Processes)
        {
            process.Dispose();
        }

        var busy = ServiceLauncher.ListeningPorts(_options).ToList();
        if (busy.Count > 0)
        {
            throw new LaunchException($"After stopping, something still listens on {string.Join(", ", busy)}.");
        }
    }

    public async ValueTask DisposeAsync() => await StopAsync();
}

public static class ServiceLauncher
{
    public static async Task<RunningServices> StartAsync(
        LaunchOptions options, Action<string>? progress = null, CancellationToken cancellationToken = default)
    {
        var busy = ListeningPorts(options).ToList();
        if (busy.Count > 0)
        {
            throw new LaunchException(
                $"Cannot start the services: {string.Join(", ", busy)} already in use. " +
                "Stop what listens there (another ProtocolBench run?), or target running services with --external.");
        }

        var processes = new List<ServiceProcess>();
        try
        {
            foreach (var spec in options.Services)
            {
                processes.Add(ServiceProcess.Start(spec, options));
                progress?.Invoke($"started {spec.Name} (pid {processes[^1].Id})");
            }

            var watch = Stopwatch.StartNew();
            await Task.WhenAll(processes.Select(p => WaitHealthyAsync(p, options, cancellationToken)));
            progress?.Invoke($"all {processes.Count} services healthy after {watch.Elapsed.TotalSeconds:F1} s");
            return new RunningServices(options, processes);
        }
        catch
        {
            await Task.WhenAll(processes.Select(p => p.StopAsync(TimeSpan.FromSeconds(5))));
            foreach (var process in processes)
            {
                process.Dispose();
            }

            throw;
        }
    }

    /// <summary>Polls the service's health check four times a second until it answers, exits or runs out of time.</summary>
    public static async Task WaitHealthyAsync(ServiceProcess process, LaunchOptions options, CancellationToken cancellationToken)
    {
        var deadline = DateTime.UtcNow + options.StartupTimeout;
        string? last = "no answer yet";
        while (DateTime.UtcNow < deadline)
        {
            cancellationToken.ThrowIfCancellationRequested();
            if (process.HasExited)
            {
                throw new LaunchException(
                    $"{process.Spec.Name} exited with code {process.ExitCode} before it became healthy. Its last output:\n{process.Tail()}");
            }

            last = await HealthProbe.ProblemAsync(options.Addresses, process.Spec.Protocol, TimeSpan.FromSeconds(1), cancellationToken);
            if (last is null)
            {
                return;
            }

            await Task.Delay(250, cancellationToken);
        }

        throw new LaunchException(
            $"{process.Spec.Name} did not become healthy within {options.StartupTimeout.TotalSeconds:F0} s ({last}). Its last output:\n{process.Tail()}");
    }

    /// <summary>The service ports of these options that something already listens on, as "127.0.0.1:5100 (Rest.Api HTTP)".</summary>
    public static IEnumerable<string> ListeningPorts(LaunchOptions options)
    {
        foreach (var spec in options.Services)
        {
            var (http, https) = options.Addresses.Ports(spec.Protocol);
            foreach (var (port, kind) in new[] { (http, "HTTP"), (https, "HTTPS") })
            {
                if (IsListening(options.Addresses.Host, port))
                {
                    yield return $"{options.Addresses.Host}:{port} ({spec.Name} {kind})";
                }
            }
        }
    }

    public static bool IsListening(string host, int port)
    {
        var address = IPAddress.Parse(host);
        using var socket = new Socket(SocketType.Stream, ProtocolType.Tcp);
        try
        {
            if (IPAddress.IsLoopback(address) || address.Equals(IPAddress.Any) || address.Equals(IPAddress.IPv6Any))
            {
                // On this machine a blocking connect is answered at once by the kernel (accepted or refused), however
                // busy the machine is; a timed wait could miss a listener when the thread pool is slow to report.
                socket.Connect(address, port);
                return true;
            }

            var result = socket.BeginConnect(address, port, null, null);
            return result.AsyncWaitHandle.WaitOne(TimeSpan.FromSeconds(2)) && socket.Connected;
        }
        catch (SocketException)
        {
            return false;
        }
    }

    /// <summary>Six free loopback ports, one per service and transport (tests must not collide with a user's services).</summary>
    public static ServiceAddresses FreeAddresses() => new(
        RestHttp: FreePort(),
        RestHttps: FreePort(),
        GrpcHttp: FreePort(),
        GrpcHttps: FreePort(),
        GraphQLHttp: FreePort(),
        GraphQLHttps: FreePort());

    /// <summary>A free TCP port on loopback (for tests that must not collide with a user's running services).</summary>
    public static int FreePort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }
}
