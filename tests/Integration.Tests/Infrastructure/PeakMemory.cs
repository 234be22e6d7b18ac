using ProtocolBench.Lab.Costs;

namespace ProtocolBench.Integration.Tests.Infrastructure;

/// <summary>
/// A service's resident memory around a hostile input, read from Linux's own accounting (<see cref="ProcessMemory"/>, as the
/// load command reads it): the peak while the input runs, and the resident set some time after.
/// </summary>
public sealed record PeakMemory(long BeforeMiB, long PeakMiB)
{
    /// <summary>The bound: one hostile request may not add more than this to a service.</summary>
    public const long BoundMiB = 256;

    /// <summary>The bound 10 s after a burst: back within this of where the service started.</summary>
    public const long BackWithinMiB = 64;

    public long GrowthMiB => PeakMiB - BeforeMiB;

    public static async Task<PeakMemory> DuringAsync(ServiceProcess service, Func<Task> hostile)
    {
        Assert.True(ProcessMemory.StartPeak(service.Id), $"{service.Spec.Name}: its peak memory cannot be reset.");
        var before = ResidentMiB(service);
        await hostile();
        return new PeakMemory(before, MiB(service, ProcessMemory.PeakKiB(service.Id)));
    }

    public static long ResidentMiB(ServiceProcess service) => MiB(service, ProcessMemory.ResidentKiB(service.Id));

    /// <summary>
    /// The resident set once it is back within <see cref="BackWithinMiB"/> of <paramref name="beforeMiB"/>, read every
    /// quarter second, or as it stands 10 s after the call (the bound's deadline): the caller asserts on it.
    /// </summary>
    public static async Task<(long ResidentMiB, double Seconds)> SettledAsync(ServiceProcess service, long beforeMiB, CancellationToken cancellationToken)
    {
        var waited = Stopwatch.StartNew();
        while (true)
        {
            var resident = ResidentMiB(service);
            if (resident - beforeMiB <= BackWithinMiB || waited.Elapsed >= SettleDeadline)
            {
                return (resident, waited.Elapsed.TotalSeconds);
            }

            await Task.Delay(TimeSpan.FromMilliseconds(250), cancellationToken);
        }
    }

    /// <summary>Asserts that the service's resident set came back within <see cref="BackWithinMiB"/> of <paramref name="beforeMiB"/>.</summary>
    public static async Task AssertGivenBackAsync(ServiceProcess service, long beforeMiB, string who, CancellationToken cancellationToken)
    {
        var (after, _) = await SettledAsync(service, beforeMiB, cancellationToken);
        Assert.True(after - beforeMiB <= BackWithinMiB, $"{who}: {after} MiB resident {SettleDeadline.TotalSeconds:0} s later, {beforeMiB} MiB before.");
    }

    /// <summary>How long after a burst the memory has to be back.</summary>
    public static readonly TimeSpan SettleDeadline = TimeSpan.FromSeconds(10);

    private static long MiB(ServiceProcess service, long? kiB) =>
        (kiB ?? throw new InvalidOperationException($"{service.Spec.Name} (pid {service.Id}): its memory cannot be read; has it exited?")) / 1024;

    public override string ToString() => $"{BeforeMiB} → peak {PeakMiB} MiB (+{GrowthMiB})";
}
