using System.Text.Json;
using System.Threading.Channels;
using ProtocolBench.Lab.Conditions;

namespace ProtocolBench.LoadTests.Studies;

/// <summary>
/// Locust's master and workers for one study (--engine locust): tools/stacks/locust/master.py, started once, takes cells
/// as lines of JSON and says what its workers report (<see cref="RunCellAsync"/>); the workers are Locust's own
/// (<c>locust --worker -f locustfile.py</c>), started here beside it. Disposing tells the master to quit, and it tells the
/// workers; whatever is still running a few seconds later is killed.
/// </summary>
public sealed class LocustSwarm : IAsyncDisposable
{
    /// <summary>How long the master and its workers may take to start and meet.</summary>
    private static readonly TimeSpan StartLimit = TimeSpan.FromSeconds(60);

    private readonly Process _master;
    private readonly List<Process> _workers = [];
    private readonly LastLines _said = new(40);
    private readonly Channel<string> _lines = Channel.CreateUnbounded<string>(new UnboundedChannelOptions { SingleReader = true });
    private readonly Action<string> _log;

    private LocustSwarm(Process master, int workers, Action<string> log)
    {
        _master = master;
        Workers = workers;
        _log = log;
    }

    /// <summary>The workers the master waits for before a cell.</summary>
    public int Workers { get; }

    /// <summary>The workers connected now, as the master last said ("2 a1b2… c3d4…").</summary>
    public string Connected { get; private set; } = "0";

    /// <summary>The CPU time the master and the workers started here have used.</summary>
    public TimeSpan CpuTime => TimeSpan.FromSeconds(_workers.Append(_master).Sum(p => TryCpu(p).TotalSeconds));

    /// <summary>
    /// Starts the master and, unless they are remote, the plan's workers on this machine, and waits until they have met. The
    /// master listens on <paramref name="port"/> (0: any free port) of the plan's address; for remote workers the command
    /// that starts one goes to the log, and they have <see cref="LocustPlan.RemoteJoinLimit"/> to join.
    /// </summary>
    public static async Task<LocustSwarm> StartAsync(LocustPlan plan, int port, Action<string> log, CancellationToken cancellationToken)
    {
        var workers = plan.Count;
        var master = Start(ClientStacks.Python, Path.Combine(LocustStack.Folder, "master.py"),
            "--bind", plan.Address, "--port", port.ToString(CultureInfo.InvariantCulture), "--workers", workers.ToString(CultureInfo.InvariantCulture));
        var swarm = new LocustSwarm(master, workers, log);
        swarm.Hear(master, "master");
        var limit = plan.Remote ? LocustPlan.RemoteJoinLimit : StartLimit;
        try
        {
            using var within = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
            within.CancelAfter(limit);
            swarm.Port = int.Parse((await swarm.NextAsync(line => line.StartsWith("master ", StringComparison.Ordinal), within.Token))["master ".Length..], CultureInfo.InvariantCulture);
            if (plan.Remote)
            {
                log($"Locust: waiting up to {limit.TotalMinutes:0} min for {workers} worker(s), one on each of {string.Join(", ", plan.Hosts)}; " +
                    "on each, where a copy of this repository's tools/stacks/ is and the stack is installed, run:");
                log($"  {plan.WorkerCommand(swarm.Port)}");
            }

            for (var i = 0; i < workers && !plan.Remote; i++)
            {
                var worker = Start(ClientStacks.Python, "-m", "locust", "-f", Path.Combine(LocustStack.Folder, "locustfile.py"), "--worker",
                    "--master-host", plan.Address, "--master-port", swarm.Port.ToString(CultureInfo.InvariantCulture), "--loglevel", "WARNING");
                swarm._workers.Add(worker);
                swarm.Hear(worker, $"worker {i + 1}");
            }

            await swarm.NextAsync(line => line.StartsWith("workers ", StringComparison.Ordinal) && swarm.CountConnected() >= workers, within.Token);
            return swarm;
        }
        catch (Exception e) when (e is OperationCanceledException or InvalidDataException)
        {
            await swarm.DisposeAsync();
            if (cancellationToken.IsCancellationRequested)
            {
                throw;
            }

            throw new InvalidDataException(
                $"Locust's master and {workers} worker(s) did not meet within {limit.TotalSeconds:0} s: {(e is InvalidDataException ? e.Message : swarm._said.ToString())}");
        }
    }

    /// <summary>The port the master listens on for its workers.</summary>
    public int Port { get; private set; }

    /// <summary>
    /// Runs one cell: the job to the master, each worker's report to <paramref name="onReport"/> as it comes, each time every
    /// user has ended a warm-up pass <paramref name="onWarm"/> before the users go on, and <paramref name="onMeasured"/> as the last user's
    /// last answer is reported, before Locust stops them. Returns null when the cell ran to its end, or what went wrong (a
    /// worker lost, the master gone).
    /// </summary>
    public async Task<string?> RunCellAsync(
        Dictionary<string, object?> job, Func<string, Task> onReport, Func<Task> onWarm, Func<Task> onMeasured, CancellationToken cancellationToken)
    {
        // A cell left half-way (interrupted, its service dead) leaves the master inside it: the swarm is not used again.
        Broken = true;
        try
        {
            await WriteAsync(new Dictionary<string, object?> { ["cell"] = job });
            while (true)
            {
                var line = await NextAsync(_ => true, cancellationToken);
                if (line.StartsWith("report ", StringComparison.Ordinal))
                {
                    await onReport(line["report ".Length..]);
                }
                else if (line == "warm")
                {
                    await onWarm();
                    await WriteAsync(new Dictionary<string, object?> { ["go"] = job["cell"] });
                }
                else if (line == "measured")
                {
                    await onMeasured();
                }
                else if (line == "done")
                {
                    Broken = false;
                    return null;
                }
                else if (line.StartsWith("failed ", StringComparison.Ordinal))
                {
                    // A lost worker leaves the master waiting for its users: a new swarm takes the next cell.
                    return line["failed ".Length..];
                }
            }
        }
        catch (InvalidDataException e)
        {
            return e.Message;
        }
    }

    /// <summary>Whether the last cell did not end with "done" (interrupted, failed, the master gone): then a new swarm takes the next one.</summary>
    public bool Broken { get; private set; }

    public async ValueTask DisposeAsync()
    {
        try
        {
            _master.StandardInput.Close();
        }
        catch (IOException)
        {
        }

        foreach (var process in _workers.Prepend(_master))
        {
            using var grace = new CancellationTokenSource(TimeSpan.FromSeconds(5));
            try
            {
                await process.WaitForExitAsync(grace.Token);
            }
            catch (OperationCanceledException)
            {
                process.Kill(entireProcessTree: true);
            }

            process.Dispose();
        }
    }

    private static Process Start(string fileName, params string[] arguments)
    {
        var start = new ProcessStartInfo(fileName, arguments)
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            WorkingDirectory = LocustStack.Folder,
        };
        return Process.Start(start) ?? throw new InvalidDataException($"{fileName} did not start");
    }

    private static TimeSpan TryCpu(Process process)
    {
        try
        {
            return process.TotalProcessorTime;
        }
        catch (InvalidOperationException)
        {
            return TimeSpan.Zero;
        }
    }

    /// <summary>The connected workers as Locust names them, each id shortened (<see cref="Short"/>).</summary>
    public string Joined => string.Join(", ", Connected.Split(' ').Skip(1).Select(Short));

    /// <summary>A worker's id, its host's name and 32 hex digits ("pb-host_1a2b3c…"), with the digits cut to 6.</summary>
    private static string Short(string id)
    {
        var digits = id.LastIndexOf('_') + 1;
        return digits > 1 && id.Length > digits + 6 ? id[..(digits + 6)] : id;
    }

    private int CountConnected() => int.Parse(Connected.Split(' ')[0], CultureInfo.InvariantCulture);

    /// <summary>The master's lines go to the channel (its "workers" lines also to the log); every process's last lines are kept for a message.</summary>
    private void Hear(Process process, string name)
    {
        var isMaster = process == _master;
        process.OutputDataReceived += (_, e) =>
        {
            if (e.Data is not { } line)
            {
                if (isMaster)
                {
                    _lines.Writer.TryComplete(new InvalidDataException($"Locust's master exited; its last lines: {_said}"));
                }

                return;
            }

            if (!isMaster)
            {
                _said.Add($"{name}: {line}");
                return;
            }

            if (line.StartsWith("workers ", StringComparison.Ordinal))
            {
                Connected = line["workers ".Length..];
                _log($"Locust: {CountConnected()} worker(s) connected{(CountConnected() > 0 ? $" ({Joined})" : "")}");
            }

            _lines.Writer.TryWrite(line);
        };
        process.ErrorDataReceived += (_, e) =>
        {
            if (e.Data is { } line)
            {
                _said.Add($"{name}: {line}");
            }
        };
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
    }

    private async Task<string> NextAsync(Func<string, bool> wanted, CancellationToken cancellationToken)
    {
        while (true)
        {
            string line;
            try
            {
                line = await _lines.Reader.ReadAsync(cancellationToken);
            }
            catch (ChannelClosedException e)
            {
                throw e.InnerException as InvalidDataException ?? new InvalidDataException($"Locust's master exited; its last lines: {_said}");
            }

            if (wanted(line))
            {
                return line;
            }
        }
    }

    private async Task WriteAsync(Dictionary<string, object?> command)
    {
        try
        {
            await _master.StandardInput.WriteLineAsync(JsonSerializer.Serialize(command));
            await _master.StandardInput.FlushAsync();
        }
        catch (IOException e)
        {
            throw new InvalidDataException($"Locust's master no longer reads ({e.Message}); its last lines: {_said}");
        }
    }
}
