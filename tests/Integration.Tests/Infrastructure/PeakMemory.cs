namespace ProtocolBench.Integration.Tests.Infrastructure;

/// <summary>
/// A service's resident memory around a hostile input, read from Linux's own accounting: the peak (VmHWM, reset first
/// through /proc/PID/clear_refs) while the input runs, and the resident set (VmRSS) some time after.
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
        await File.WriteAllTextAsync($"/proc/{service.Id}/clear_refs", "5");
        var before = ResidentMiB(service);
        await hostile();
        return new PeakMemory(before, Read(service, "VmHWM"));
    }

    public static long ResidentMiB(ServiceProcess service) => Read(service, "VmRSS");

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

    private static long Read(ServiceProcess service, string field)
    {
        var line = File.ReadLines($"/proc/{service.Id}/status").Single(l => l.StartsWith(field + ":", StringComparison.Ordinal));
        return long.Parse(line[(field.Length + 1)..].Trim().Split(' ')[0]) / 1024;
    }

    public override string ToString() => $"{BeforeMiB} → peak {PeakMiB} MiB (+{GrowthMiB})";
}
