using System.Net;
using System.Net.Sockets;
using System.Text.RegularExpressions;
using ProtocolBench.Lab.Runs;

namespace ProtocolBench.Lab.Services;

/// <summary>
/// Starts the services as separate processes, waits for each /healthz, and stops them again.
/// Used by the benchmark and load-test commands and by the tests: one way to run the services.
/// </summary>
public static partial class ServiceLauncher
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
            await PinAsync(processes, options, cancellationToken);
            if (options.MeterServices)
            {
                foreach (var problem in processes.Select(p => p.AttachMeter()).OfType<string>())
                {
                    progress?.Invoke(problem);
                }
            }

            var running = new RunningServices(options, processes);
            progress?.Invoke($"all {processes.Count} services healthy after {watch.Elapsed.TotalSeconds:F1} s" +
                             (options.Addresses.HasAnyFreePort ? $" on ports {running.Addresses}" : ""));
            if (processes.Select(p => p.DatabaseLine).OfType<string>().OrderBy(l => l.Contains("created and seeded", StringComparison.Ordinal) ? 0 : 1).FirstOrDefault() is { } database)
            {
                progress?.Invoke($"database: {database}");
            }

            return running;
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

    /// <summary>Pins the healthy services to their CPUs (<see cref="Pinning.PinAsync"/>); a service that cannot be pinned is not measured.</summary>
    private static async Task PinAsync(IEnumerable<ServiceProcess> processes, LaunchOptions options, CancellationToken cancellationToken)
    {
        if (options.ServerCpus is not { } cpus || !OperatingSystem.IsLinux())
        {
            return;
        }

        foreach (var process in processes)
        {
            if (await Pinning.PinAsync(process.Id, cpus, cancellationToken) is { } problem)
            {
                throw new LaunchException($"{process.Spec.Name} (pid {process.Id}) could not be pinned to CPU {cpus}: {problem}");
            }
        }
    }

    /// <summary>
    /// Four times a second until the service has said where it listens (its ready line) and answers its health check
    /// there, exits, or runs out of time.
    /// </summary>
    public static async Task WaitHealthyAsync(ServiceProcess process, LaunchOptions options, CancellationToken cancellationToken)
    {
        var deadline = DateTime.UtcNow + options.StartupTimeout;
        string? last = "no ready line yet";
        while (DateTime.UtcNow < deadline)
        {
            cancellationToken.ThrowIfCancellationRequested();
            if (process.HasExited)
            {
                throw new LaunchException(ExitedEarly(process));
            }

            if (process.Ports is var (http, https))
            {
                var addresses = options.Addresses.WithPorts(process.Spec.Protocol, http, https);
                last = await HealthProbe.ProblemAsync(addresses, process.Spec.Protocol, TimeSpan.FromSeconds(1), cancellationToken);
                if (last is null)
                {
                    return;
                }
            }

            await Task.Delay(250, cancellationToken);
        }

        throw new LaunchException(
            $"{process.Spec.Name} (pid {process.Id}) did not become healthy within {options.StartupTimeout.TotalSeconds:F0} s ({last}). Its last output:\n{process.Tail()}");
    }

    /// <summary>
    /// Why a service exited before it was healthy. A port taken after the launcher's check (by another process, in the
    /// moment between) is named: Kestrel's message says which address it could not bind.
    /// </summary>
    private static string ExitedEarly(ServiceProcess process)
    {
        var tail = process.Tail();
        return AddressInUse().Match(tail) is { Success: true } taken
            ? $"{process.Spec.Name} could not listen on {taken.Groups["address"].Value}: the port is in use by another process " +
              "(it was free when this run checked). Stop that process, choose other ports (--ports), or let the services pick free ones (--ports auto)."
            : $"{process.Spec.Name} exited with code {process.ExitCode} before it became healthy. Its last output:\n{tail}";
    }

    [GeneratedRegex(@"Failed to bind to address (?<address>\S+?):? address already in use", RegexOptions.IgnoreCase)]
    private static partial Regex AddressInUse();

    /// <summary>The service ports of these options that something already listens on, as "127.0.0.1:5100 (Rest.Api HTTP)".</summary>
    public static IEnumerable<string> ListeningPorts(LaunchOptions options)
    {
        foreach (var spec in options.Services)
        {
            var (http, https) = options.Addresses.Ports(spec.Protocol);
            foreach (var (port, kind) in new[] { (http, "HTTP"), (https, "HTTPS") })
            {
                if (port != 0 && IsListening(options.Addresses.Host, port))
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
}
