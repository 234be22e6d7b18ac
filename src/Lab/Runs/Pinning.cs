namespace ProtocolBench.Lab.Runs;

/// <summary>
/// On a machine of few cores the client and the services would otherwise take turns on the same cores. By default, on
/// 2+ cores, the client (this process, every thread) runs on core 0 and the services on the others; the plan says so
/// in every report. Linux pins with taskset; Windows sets this process's affinity. The services start on every core
/// and are pinned (<see cref="PinAsync"/>) once they are healthy, before anything is measured: while the client waits,
/// their start-up may use its core too (four services took 4.3–5.3 s to be healthy on one core).
/// </summary>
public sealed record Pinning(string? ClientCpus, string? ServerCpus, string Why)
{
    private const string TaskSet = "/usr/bin/taskset";

    public static Pinning Plan(bool noPin, bool external, string? clientCpus = null, string? serverCpus = null)
    {
        var cores = Environment.ProcessorCount;
        if (noPin)
        {
            return new(null, null, "none (--no-pin)");
        }

        if (cores < 2)
        {
            return new(null, null, "none (fewer than 2 cores)");
        }

        var servers = external ? null : serverCpus ?? (cores == 2 ? "1" : $"1-{cores - 1}");
        if (OperatingSystem.IsLinux() && File.Exists(TaskSet))
        {
            return new(clientCpus ?? "0", servers, external ? "client only (the services run elsewhere)" : "taskset");
        }

        return OperatingSystem.IsWindows()
            ? new(clientCpus ?? "0", null, "client only (processor affinity; services not pinned: no taskset)")
            : new(null, null, "none (no taskset)");
    }

    /// <summary>The BenchmarkDotNet affinity mask of the client's CPUs (CPU n is bit n), or null.</summary>
    public long? ClientMask => ClientCpus is null ? null : Cpus(ClientCpus).Aggregate(0L, (mask, cpu) => mask | (1L << cpu));

    public string Describe() =>
        ClientCpus is null
            ? $"none: {Why}"
            : $"client (this process) on CPU {ClientCpus}; services {(ServerCpus is null ? $"not pinned: {Why}" : $"on CPU {ServerCpus} (taskset -a -p once healthy)")}";

    /// <summary>Pins this process (<see cref="PinClient"/>) and returns the plan as the reports state it, with what went wrong if it could not.</summary>
    public string Apply()
    {
        var client = PinClient();
        return client.StartsWith("not pinned", StringComparison.Ordinal) ? $"{Describe()}; client {client}" : Describe();
    }

    /// <summary>Pins every thread of this process to the client CPUs; returns what the kernel reports, or why it could not.</summary>
    public string PinClient()
    {
        if (ClientCpus is null)
        {
            return $"CPU {Allowed()} (not pinned)";
        }

        try
        {
            if (OperatingSystem.IsWindows())
            {
                Process.GetCurrentProcess().ProcessorAffinity = (nint)ClientMask!.Value;
                return $"CPU {ClientCpus}";
            }

            // -a: threads that exist already too; threads made later inherit it.
            using var process = Process.Start(new ProcessStartInfo(TaskSet)
            {
                ArgumentList = { "-a", "-p", "-c", ClientCpus, Environment.ProcessId.ToString() },
                RedirectStandardOutput = true,
                RedirectStandardError = true,
            })!;
            var error = process.StandardError.ReadToEnd();
            process.StandardOutput.ReadToEnd();
            process.WaitForExit();
            return process.ExitCode == 0 ? $"CPU {Allowed()}" : $"not pinned ({error.Trim()})";
        }
        catch (Exception e) when (e is System.ComponentModel.Win32Exception or InvalidOperationException or PlatformNotSupportedException)
        {
            return $"not pinned ({e.Message})";
        }
    }

    /// <summary>
    /// Pins a running process, every thread it has, to <paramref name="cpus"/> (taskset -a -p) and checks that each thread is
    /// (a thread made while taskset walks the others could be missed, so it is run again then). Null when pinned, else why not.
    /// </summary>
    public static async Task<string?> PinAsync(int pid, string cpus, CancellationToken cancellationToken = default)
    {
        var wanted = Cpus(cpus).ToHashSet();
        var problem = "not tried";
        for (var attempt = 0; attempt < 3; attempt++)
        {
            using var taskset = Process.Start(new ProcessStartInfo(TaskSet)
            {
                ArgumentList = { "-a", "-p", "-c", cpus, pid.ToString(CultureInfo.InvariantCulture) },
                RedirectStandardOutput = true,
                RedirectStandardError = true,
            })!;
            var output = taskset.StandardOutput.ReadToEndAsync(cancellationToken);
            var error = await taskset.StandardError.ReadToEndAsync(cancellationToken);
            await output;
            await taskset.WaitForExitAsync(cancellationToken);
            if (taskset.ExitCode != 0)
            {
                return $"taskset -a -p -c {cpus} {pid} failed: {error.Trim()}";
            }

            List<string> stray;
            try
            {
                stray = ThreadsNotOn(pid, wanted).ToList();
            }
            catch (IOException)
            {
                return "the process ended";
            }

            if (stray.Count == 0)
            {
                return null;
            }

            problem = $"threads {string.Join(", ", stray)} are not on CPU {cpus}";
        }

        return problem;
    }

    /// <summary>The threads of the process not allowed exactly <paramref name="cpus"/>; a thread that ends while it is looked at is not one.</summary>
    private static IEnumerable<string> ThreadsNotOn(int pid, HashSet<int> cpus)
    {
        foreach (var task in Directory.EnumerateDirectories($"/proc/{pid}/task"))
        {
            string? allowed;
            try
            {
                allowed = File.ReadLines(Path.Combine(task, "status"))
                    .FirstOrDefault(l => l.StartsWith("Cpus_allowed_list:", StringComparison.Ordinal))?.Split(':', 2)[1].Trim();
            }
            catch (IOException)
            {
                continue;
            }

            if (allowed is not null && !Cpus(allowed).ToHashSet().SetEquals(cpus))
            {
                yield return Path.GetFileName(task);
            }
        }
    }

    /// <summary>How many CPUs a taskset list names ("1-3": 3).</summary>
    public static int Count(string cpus) => Cpus(cpus).Count();

    /// <summary>The CPUs the kernel has online ("0-1"): where a service starts, whatever this process is pinned to.</summary>
    public static string OnlineCpus()
    {
        const string online = "/sys/devices/system/cpu/online";
        return File.Exists(online) ? File.ReadAllText(online).Trim() : $"0-{Environment.ProcessorCount - 1}";
    }

    /// <summary>The command prefix that runs a program on <paramref name="cpus"/> (taskset -c), or nothing.</summary>
    public static List<string> Prefix(string? cpus) =>
        cpus is null || !OperatingSystem.IsLinux() || !File.Exists(TaskSet) ? [] : [TaskSet, "-c", cpus];

    /// <summary>The CPU list the kernel lets this process run on (Cpus_allowed_list), or "all".</summary>
    public static string Allowed()
    {
        const string status = "/proc/self/status";
        return File.Exists(status)
            ? File.ReadLines(status).FirstOrDefault(l => l.StartsWith("Cpus_allowed_list:", StringComparison.Ordinal))?.Split(':', 2)[1].Trim() ?? "all"
            : "all";
    }

    private static IEnumerable<int> Cpus(string list) =>
        from part in list.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
        let range = part.Split('-')
        from cpu in Enumerable.Range(int.Parse(range[0]), range.Length == 1 ? 1 : int.Parse(range[1]) - int.Parse(range[0]) + 1)
        select cpu;
}
