namespace ProtocolBench.LinkDelayer;

/// <summary>
/// What the link does to each packet: loses the link's share, and holds each other one for the delay ± the jitter
/// (uniform, as netem's default), but never lets it go before the packet ahead of it: jitter without reordering, as on
/// one wire. Seeded, so a run's losses and jitter can be had again.
/// </summary>
public sealed class PacketFate(double delayMs, double jitterMs, double lossPercent, int seed)
{
    private readonly Random _random = new(seed);
    private readonly long _delay = Ticks(delayMs);
    private readonly long _jitter = Ticks(jitterMs);

    /// <summary>
    /// When a packet received at <paramref name="received"/> (Stopwatch ticks) is let go, after the one ahead of it,
    /// due at <paramref name="dueAhead"/>; null when it is lost.
    /// </summary>
    public long? Due(long received, long dueAhead)
    {
        if (lossPercent > 0 && _random.NextDouble() * 100 < lossPercent)
        {
            return null;
        }

        var jitter = _jitter == 0 ? 0 : (long)((_random.NextDouble() * 2 - 1) * _jitter);
        return Math.Max(received + Math.Max(0, _delay + jitter), dueAhead);
    }

    private static long Ticks(double ms) => (long)(ms * Stopwatch.Frequency / 1000);
}
