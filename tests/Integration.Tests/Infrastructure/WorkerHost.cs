namespace ProtocolBench.Integration.Tests.Infrastructure;

/// <summary>
/// Another "machine" for Locust's workers: a network namespace of its own (iproute2's ip), joined to this one by a veth
/// pair of two addresses, so that its processes reach this machine's master and services only over the pair, by
/// <see cref="MachineAddress"/>. Disposing kills what it started and deletes the namespace, which removes the pair.
/// </summary>
public sealed class WorkerHost : IAsyncDisposable
{
    private readonly string _namespace;
    private readonly List<Process> _started = [];
    private readonly List<string> _heard = [];

    private WorkerHost(int id)
    {
        _namespace = $"pbw{id}";
        // A /30 of its own in 10.178.0.0/16 (the shaped links use 10.177.0.0/16), from the process id's low 14 bits.
        var subnet = (id & 0x3fff) * 4;
        MachineAddress = $"10.178.{subnet >> 8}.{(subnet & 0xff) + 1}";
        Address = $"10.178.{subnet >> 8}.{(subnet & 0xff) + 2}";
    }

    /// <summary>The namespace's address, which the load command is given as the workers' host.</summary>
    public string Address { get; }

    /// <summary>This machine's end of the pair, where the master and the services listen for the workers.</summary>
    public string MachineAddress { get; }

    /// <summary>Why a namespace cannot be made here (not Linux, not root, no ip), or null.</summary>
    public static string? Unavailable() =>
        !OperatingSystem.IsLinux() ? "network namespaces are Linux's"
        : Environment.UserName != "root" ? "making a network namespace takes root"
        : !File.Exists("/usr/sbin/ip") && !File.Exists("/sbin/ip") && !File.Exists("/usr/bin/ip") ? "iproute2's ip is not installed: apt-get install iproute2"
        : null;

    public static async Task<WorkerHost> CreateAsync()
    {
        var host = new WorkerHost(Environment.ProcessId);
        var (outside, inside) = ($"pbwh{Environment.ProcessId}", $"pbwn{Environment.ProcessId}");
        await host.DisposeAsync();
        await Processes.RunAsync("ip", "netns", "add", host._namespace);
        try
        {
            await Processes.RunAsync("ip", "link", "add", outside, "type", "veth", "peer", "name", inside);
            await Processes.RunAsync("ip", "link", "set", inside, "netns", host._namespace);
            await Processes.RunAsync("ip", "addr", "add", $"{host.MachineAddress}/30", "dev", outside);
            await Processes.RunAsync("ip", "link", "set", outside, "up");
            await Processes.RunAsync("ip", "netns", "exec", host._namespace, "ip", "addr", "add", $"{host.Address}/30", "dev", inside);
            await Processes.RunAsync("ip", "netns", "exec", host._namespace, "ip", "link", "set", inside, "up");
            await Processes.RunAsync("ip", "netns", "exec", host._namespace, "ip", "link", "set", "lo", "up");
            return host;
        }
        catch
        {
            await host.DisposeAsync();
            throw;
        }
    }

    /// <summary>Runs a shell command in the namespace, from the repository's root, as a user of the other machine would.</summary>
    public Process Start(string command)
    {
        var info = new ProcessStartInfo("ip") { WorkingDirectory = ProtocolBench.Shared.Domain.ProjectPaths.RootOrCurrent, RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (var arg in new[] { "netns", "exec", _namespace, "sh", "-c", command })
        {
            info.ArgumentList.Add(arg);
        }

        var process = new Process { StartInfo = info };
        process.StartHearing(line =>
        {
            lock (_heard)
            {
                if (line is not null)
                {
                    _heard.Add(line);
                }
            }
        });
        _started.Add(process);
        return process;
    }

    /// <summary>What the processes started here wrote, for a failed test's message.</summary>
    public string Heard
    {
        get
        {
            lock (_heard)
            {
                return string.Join('\n', _heard);
            }
        }
    }

    public async ValueTask DisposeAsync()
    {
        foreach (var process in _started.Where(p => !p.HasExited))
        {
            process.Kill(entireProcessTree: true);
        }

        if ((await Processes.RunAsync("ip", "netns", "list")).Split('\n').Any(line => line.Split(' ')[0] == _namespace))
        {
            // Deleting the namespace deletes its end of the pair, and with it the other.
            await Processes.RunAsync("ip", "netns", "del", _namespace);
        }
    }
}
