using System.Text.RegularExpressions;
using ProtocolBench.Lab.Costs;
using ProtocolBench.Lab.Runs;

namespace ProtocolBench.Lab.Services;

/// <summary>A service child process. Its stdin is the lifeline: when this process dies, the pipe closes and the service stops itself.</summary>
public sealed partial class ServiceProcess : IDisposable
{
    private const int TailLines = 60;
    private readonly LastLines _tail = new(TailLines);
    private readonly TaskCompletionSource<(int Http, int Https)> _ready = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly Process _process;
    private int? _exitCode;

    private ServiceProcess(ServiceSpec spec, Process process)
    {
        Spec = spec;
        _process = process;
    }

    public ServiceSpec Spec { get; }

    public int Id => _process.Id;

    public bool HasExited => _exitCode is not null || Refresh();

    /// <summary>Null while running; kept after <see cref="Dispose"/>.</summary>
    public int? ExitCode => HasExited ? _exitCode : null;

    /// <summary>
    /// The ports the service listens on, from its ready line ("Rest.Api ready (pid 1): http://127.0.0.1:5100 [...],
    /// https://127.0.0.1:5101 [...]; ..."), printed once it listens and its database is ready; null until then.
    /// </summary>
    public (int Http, int Https)? Ports => _ready.Task.IsCompleted ? _ready.Task.Result : null;

    /// <summary>The port of the service's loopback sender, from its ready line ("..., tcp://127.0.0.1:5102 [loopback sender]; ..."); null when it has none.</summary>
    public int? SenderPort { get; private set; }

    /// <summary>The service's own account of what it spends (<see cref="LaunchOptions.MeterServices"/>); null when not asked for or not reachable.</summary>
    public ServiceMeter? Meter { get; private set; }

    /// <summary>Starts reading the service's meter; says why not when its diagnostics cannot be reached.</summary>
    public string? AttachMeter()
    {
        Meter = ServiceMeter.TryAttach(Id, out var problem);
        return problem is null ? null : $"{Spec.Name} (pid {Id}): its runtime's diagnostics cannot be reached ({problem}); its cost is not measured";
    }

    /// <summary>Completes when the process exits, for whatever reason.</summary>
    public Task Exited => _process.WaitForExitAsync();

    public static ServiceProcess Start(ServiceSpec spec, LaunchOptions options)
    {
        var dll = spec.AssemblyPath(options.RepositoryRoot, options.Configuration);
        if (!File.Exists(dll))
        {
            throw new LaunchException(
                $"{spec.Name} is not built: {dll} is missing. Build it with: dotnet build -c {options.Configuration}");
        }

        var (http, https) = options.Addresses.Ports(spec.Protocol);
        var arguments = new List<string>
        {
            dll,
            $"--Endpoints:Address={options.Addresses.Host}",
            $"--Endpoints:HttpPort={http}",
            $"--Endpoints:HttpsPort={https}",
            $"--Database:Provider={options.Provider}",
            $"--Database:ConnectionString={options.ConnectionString ?? ""}",
            "--Lifeline=stdin",
        };
        if (spec.Protocol == Protocol.Rest)
        {
            // The loopback transfer's sender: where it listened before a restart, any free port at first.
            arguments.Add($"--Endpoints:SenderPort={options.Addresses.SenderPort ?? 0}");
        }

        if (!string.IsNullOrWhiteSpace(options.CertificatePath))
        {
            arguments.Add($"--Certificate:Path={options.CertificatePath}");
        }

        arguments.AddRange(options.Settings.Select(s => $"--{s.Key}={s.Value}"));

        var info = new ProcessStartInfo
        {
            FileName = "dotnet",
            WorkingDirectory = Path.GetDirectoryName(dll)!,
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        // ip netns exec and taskset each exec the next program, so the process started is the service (its pid too). It
        // starts on every core (not on this process's, which it would inherit) and is pinned once healthy (ServiceLauncher).
        string[] prefix =
        [
            .. options.NetworkNamespace is { } space ? ["ip", "netns", "exec", space] : Array.Empty<string>(),
            .. options.ServerCpus is null ? [] : Pinning.Prefix(Pinning.OnlineCpus()),
        ];
        if (prefix.Length > 0)
        {
            info.FileName = prefix[0];
            foreach (var argument in prefix.Skip(1).Append("dotnet"))
            {
                info.ArgumentList.Add(argument);
            }
        }

        foreach (var argument in arguments)
        {
            info.ArgumentList.Add(argument);
        }

        if (options.ServerCpus is { } cpus)
        {
            // Sized as a process born on its CPUs: the runtime reads the count once, at start (server or workstation GC,
            // its heaps, the thread pool, Kestrel's I/O queues), before the pinning.
            info.Environment["DOTNET_PROCESSOR_COUNT"] = Pinning.Count(cpus).ToString(CultureInfo.InvariantCulture);
        }

        info.Environment["DOTNET_ENVIRONMENT"] = "Production";
        info.Environment["ASPNETCORE_ENVIRONMENT"] = "Production";
        info.Environment["DOTNET_NOLOGO"] = "1";
        if (options.PromoteHotCodeEarly)
        {
            info.Environment["DOTNET_TC_CallCountingDelayMs"] = LaunchOptions.CallCountingDelayMs.ToString(CultureInfo.InvariantCulture);
        }

        var process = new Process { StartInfo = info, EnableRaisingEvents = true };
        var service = new ServiceProcess(spec, process);
        process.StartHearing(service.Remember);
        return service;
    }

    /// <summary>What the service said of its database at start (created and seeded, or checked, and in how long), once it has.</summary>
    public string? DatabaseLine { get; private set; }

    /// <summary>The last lines the service printed, for error messages.</summary>
    public string Tail() => _tail.ToString();

    /// <summary>Closes the lifeline (graceful stop), waits, then kills the process tree.</summary>
    public async Task StopAsync(TimeSpan grace)
    {
        Meter?.Dispose();
        if (HasExited)
        {
            return;
        }

        try
        {
            _process.StandardInput.Close();
        }
        catch (IOException)
        {
        }

        using var timeout = new CancellationTokenSource(grace);
        try
        {
            await _process.WaitForExitAsync(timeout.Token);
        }
        catch (OperationCanceledException)
        {
            Kill();
            await _process.WaitForExitAsync(CancellationToken.None).WaitAsync(TimeSpan.FromSeconds(10));
        }
    }

    public void Kill()
    {
        try
        {
            if (!_process.HasExited)
            {
                _process.Kill(entireProcessTree: true);
            }
        }
        catch (InvalidOperationException)
        {
        }
    }

    public void Dispose()
    {
        Meter?.Dispose();
        Kill();
        Refresh();
        _process.Dispose();
    }

    private bool Refresh()
    {
        try
        {
            if (_process.HasExited)
            {
                _exitCode = _process.ExitCode;
                return true;
            }
        }
        catch (InvalidOperationException)
        {
        }

        return false;
    }

    private void Remember(string? line)
    {
        if (line is null)
        {
            return;
        }

        const string database = "info: ProtocolBench.Database[0] ";
        if (DatabaseLine is null && line.StartsWith(database, StringComparison.Ordinal))
        {
            DatabaseLine = line[database.Length..];
        }

        if (!_ready.Task.IsCompleted && ReadyLine().Match(line) is { Success: true } ready)
        {
            SenderPort = SenderOfReadyLine().Match(line) is { Success: true } sender ? int.Parse(sender.Groups["port"].Value) : null;
            _ready.TrySetResult((int.Parse(ready.Groups["http"].Value), int.Parse(ready.Groups["https"].Value)));
        }

        _tail.Add(line);
    }

    [GeneratedRegex(@" ready \(pid \d+\): http://\S+:(?<http>\d+) \[[^\]]*\], https://\S+:(?<https>\d+) \[")]
    private static partial Regex ReadyLine();

    [GeneratedRegex(@"tcp://\S+:(?<port>\d+) \[loopback sender\]")]
    private static partial Regex SenderOfReadyLine();
}
