using System.Runtime.InteropServices;
using System.Text.RegularExpressions;
using ProtocolBench.Lab.Services;
using static ProtocolBench.Lab.Network.NetworkCommand;

namespace ProtocolBench.Lab.Network;

/// <summary>
/// A link's delay, jitter and loss where the kernel has no netem: ProtocolBench.LinkDelayer, a process of this run that
/// holds every packet iptables queues to it (NFQUEUE) for the profile's delay. Each direction is queued where it is
/// received, before the receiver's own stack: this machine → services in the namespace's PREROUTING, services → this
/// machine in this machine's PREROUTING (a packet held before it leaves its sender counts, for the sender's TCP, as not
/// yet sent, and the link crawls: 2.7 Mbit/s of 100 measured). So every packet is delayed, handshakes included, as netem
/// delays them; a delaying proxy would complete the handshake at once and delay writes, not packets.
/// </summary>
public sealed partial class DelayerProcess : IAsyncDisposable
{
    private const string AssemblyFileName = "ProtocolBench.LinkDelayer.dll";

    /// <summary>The one line that installs what the delayer needs.</summary>
    public const string Install = "apt-get install iptables libnetfilter-queue1";

    private static readonly TimeSpan StartTimeout = TimeSpan.FromSeconds(30);
    private static readonly TimeSpan StopTimeout = TimeSpan.FromSeconds(5);

    private readonly Process _process;
    private readonly string[] _hostRule;
    private readonly TaskCompletionSource<string> _ready = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly TaskCompletionSource<string> _done = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private TaskCompletionSource<string> _soFar = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly LastLines _said = new(20);

    private DelayerProcess(Process process, string[] hostRule)
    {
        _process = process;
        _hostRule = hostRule;
    }

    public int Id => _process.Id;

    /// <summary>Why the delayer cannot run here (iptables or libnetfilter_queue missing), with the line that installs them; null when it can.</summary>
    public static string? Unavailable() =>
        FindTool("iptables") is null || !NativeLibrary.TryLoad("libnetfilter_queue.so.1", out _)
            ? $"this kernel has no netem, and the delay, jitter and loss are then made by ProtocolBench's NFQUEUE delayer, which needs iptables and libnetfilter_queue: {Install}"
            : null;

    /// <summary>
    /// Starts the delayer for <paramref name="profile"/> on the link between <paramref name="hostDevice"/> and
    /// <paramref name="serviceDevice"/> (in <paramref name="space"/>), then queues both directions to it. Throws
    /// <see cref="LaunchException"/> with what the delayer said when it cannot start.
    /// </summary>
    public static async Task<DelayerProcess> StartAsync(
        NetworkProfile profile, string space, string hostDevice, string serviceDevice, int id, CancellationToken cancellationToken)
    {
        var dll = Path.Combine(ProjectPaths.RootOrCurrent, "src", "LinkDelayer", "bin", LaunchOptions.BuildConfiguration, "net10.0", AssemblyFileName);
        if (!File.Exists(dll))
        {
            throw new LaunchException($"The link delayer is not built: {dll} is missing. Build it with: dotnet build -c {LaunchOptions.BuildConfiguration}");
        }

        // The namespace is this run's, so its queue is 0; this machine's is shared with other runs, so it is numbered by the run.
        var hostQueue = (ushort)(id & 0xffff);
        var info = new ProcessStartInfo("dotnet")
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (var argument in new[]
                 {
                     dll,
                     "--delay-ms", Invariant(profile.DelayMs), "--jitter-ms", Invariant(profile.JitterMs), "--loss-percent", Invariant(profile.LossPercent),
                     "--queue-length", Invariant(profile.QueueLimit), "--queue", $"0@{space}", "--queue", Invariant(hostQueue),
                 })
        {
            info.ArgumentList.Add(argument);
        }

        info.Environment["DOTNET_NOLOGO"] = "1";
        var process = new Process { StartInfo = info };
        var delayer = new DelayerProcess(process, QueueRule(hostDevice, hostQueue));
        process.StartHearing(delayer.Heard);
        try
        {
            var exited = process.WaitForExitAsync(cancellationToken);
            if (await Task.WhenAny(delayer._ready.Task, exited, Task.Delay(StartTimeout, cancellationToken)) != delayer._ready.Task)
            {
                cancellationToken.ThrowIfCancellationRequested();
                throw new LaunchException($"The link delayer did not start: {delayer.Said()}");
            }

            await RunAsync(["ip", "netns", "exec", space, .. QueueRule(serviceDevice, 0)], cancellationToken);
            await RunAsync(delayer._hostRule, cancellationToken);
            return delayer;
        }
        catch
        {
            await delayer.DisposeAsync();
            throw;
        }
    }

    /// <summary>What the delayer said when it was ready: its settings and whether it runs in real time.</summary>
    public string ReadyLine => _ready.Task.IsCompleted ? _ready.Task.Result : "";

    /// <summary>
    /// What the delayer has done so far ("queue 0 in pb-1: delayed 2638, lost 0, ...; let go late by median 70 µs, ..."),
    /// for the report while the link is still up; null when it does not answer.
    /// </summary>
    public async Task<string?> ReportAsync()
    {
        try
        {
            _soFar = new TaskCompletionSource<string>(TaskCreationOptions.RunContinuationsAsynchronously);
            await _process.StandardInput.WriteLineAsync("report");
            await _process.StandardInput.FlushAsync();
            return await _soFar.Task.WaitAsync(StopTimeout);
        }
        catch (Exception e) when (e is IOException or TimeoutException or InvalidOperationException)
        {
            return null;
        }
    }

    /// <summary>
    /// Removes this machine's rule (the namespace's goes with the namespace), closes the delayer's lifeline and returns
    /// what it did ("done: queue 0 in pb-1: delayed 2638, lost 0, ...; let go late by median 43 µs, ..."), or null.
    /// </summary>
    public async Task<string?> StopAsync()
    {
        try
        {
            await RunAsync([.. _hostRule.Select(a => a == "-A" ? "-D" : a)], CancellationToken.None);
        }
        catch (NetworkCommandException)
        {
            // Not added (the delayer failed to start), or already removed.
        }

        try
        {
            _process.StandardInput.Close();
            if (await Task.WhenAny(_done.Task, Task.Delay(StopTimeout)) == _done.Task)
            {
                await _process.WaitForExitAsync().WaitAsync(StopTimeout);
                return _done.Task.Result;
            }
        }
        catch (Exception e) when (e is IOException or TimeoutException or InvalidOperationException)
        {
            // Gone already, or stuck: killed below.
        }

        _process.Kill(entireProcessTree: true);
        return null;
    }

    public async ValueTask DisposeAsync()
    {
        if (!_process.HasExited)
        {
            await StopAsync();
        }

        _process.Dispose();
    }

    /// <summary>Removes this machine's queue rules of runs whose process is gone (their delayers stopped with them).</summary>
    public static async Task RemoveLeftoverRulesAsync(Func<int, bool> gone, Action<string> log, CancellationToken cancellationToken)
    {
        if (FindTool("iptables") is null)
        {
            return;
        }

        foreach (Match rule in HostRule().Matches(await RunAsync(["iptables", "-w", "-t", "mangle", "-S", "PREROUTING"], cancellationToken)))
        {
            if (gone(int.Parse(rule.Groups[1].Value, CultureInfo.InvariantCulture)))
            {
                await RunAsync(["iptables", "-w", "-t", "mangle", "-D", .. rule.Value.Trim().Split(' ').Skip(1)], cancellationToken);
                log($"Removed the iptables rule '{rule.Value.Trim()}', left by an earlier run.");
            }
        }
    }

    /// <summary>The iptables rule that queues what <paramref name="device"/> receives to <paramref name="queue"/>.</summary>
    private static string[] QueueRule(string device, ushort queue) =>
        ["iptables", "-w", "-t", "mangle", "-A", "PREROUTING", "-i", device, "-j", "NFQUEUE", "--queue-num", Invariant(queue)];

    private void Heard(string? line)
    {
        if (line is null)
        {
            return;
        }

        _said.Add(line);
        if (line.StartsWith("ready", StringComparison.Ordinal))
        {
            _ready.TrySetResult(line);
        }
        else if (line.StartsWith("so far: ", StringComparison.Ordinal))
        {
            _soFar.TrySetResult(line["so far: ".Length..]);
        }
        else if (line.StartsWith("done: ", StringComparison.Ordinal))
        {
            _done.TrySetResult(line["done: ".Length..]);
        }
    }

    private string Said() => _said.ToString() is { Length: > 0 } said ? said : "it said nothing";

    private static string Invariant(IFormattable value) => value.ToString(null, CultureInfo.InvariantCulture);

    [GeneratedRegex(@"^-A PREROUTING -i pbh(\d+) -j NFQUEUE --queue-num \d+\s*$", RegexOptions.Multiline)]
    private static partial Regex HostRule();
}
