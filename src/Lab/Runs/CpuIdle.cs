namespace ProtocolBench.Lab.Runs;

/// <summary>
/// Keeps this machine's idle cores polling for the run instead of halting. Between two calls of one connection the
/// client's core and the service's core each go idle for a few microseconds; a halted core is woken by an
/// interrupt, and in a virtual machine that is an exit to the hypervisor and a wait for it to run the core again.
/// On the 2-core KVM machine of docs/methodology.md ("Idle cores poll") a ping-pong between the two cores took
/// 56 µs a round trip with halting and 24 µs with polling, and how long the hypervisor took to wake a core moved each
/// cell from round to round more than the client or the services did (residual SD 7.1–7.5 % halting, 5.3–5.5 % polling).
/// Linux's PM QoS interface: while a process holds /dev/cpu_dma_latency open with 0 written to it, the cpuidle governor
/// picks no state that takes longer than 0 µs to leave, which is polling; closing it (at the end of the run, or when
/// the process dies) gives the machine its own setting back. Nothing else is changed.
/// </summary>
public sealed class CpuIdle : IDisposable
{
    public const string LatencyFile = "/dev/cpu_dma_latency";

    private const string PollingPrefix = "polling: ";

    private readonly FileStream? _held;

    private CpuIdle(FileStream? held, string description)
    {
        _held = held;
        Description = description;
    }

    /// <summary>What the run's idle cores did, as both reports' setup table states it.</summary>
    public string Description { get; }

    public bool Polling => _held is not null;

    /// <summary>Holds <paramref name="latencyFile"/> at 0 µs unless <paramref name="leave"/> (--no-idle-poll) says not to; says why when it cannot.</summary>
    public static CpuIdle Hold(bool leave, string latencyFile = LatencyFile)
    {
        const string leftAsIs = "left to the system";
        if (leave)
        {
            return new(null, $"{leftAsIs} (--no-idle-poll)");
        }

        if (!OperatingSystem.IsLinux())
        {
            return new(null, $"{leftAsIs} (polling is set through {LatencyFile}, which only Linux has)");
        }

        try
        {
            var file = new FileStream(latencyFile, FileMode.Open, FileAccess.Write, FileShare.ReadWrite, bufferSize: 0);
            file.Write(BitConverter.GetBytes(0));
            return new(file, $"{PollingPrefix}{latencyFile} held at 0 µs for the run, so an idle core of this machine polls instead of halting (--no-idle-poll to leave it)");
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            var why = e is UnauthorizedAccessException ? "permission denied: it takes root" : e.Message;
            return new(null, $"{leftAsIs}: {latencyFile} could not be held ({why}); the cells then move more between rounds (docs/methodology.md, \"Idle cores poll\")");
        }
    }

    /// <summary>Whether a run's <see cref="Description"/> says its idle cores polled; null for a run from before it was recorded.</summary>
    public static bool? Polled(string description) => description.Length == 0 ? null : description.StartsWith(PollingPrefix, StringComparison.Ordinal);

    public void Dispose() => _held?.Dispose();
}
