namespace ProtocolBench.LinkDelayer;

/// <summary>What the link does to each packet, in each direction: hold it for the delay ± the jitter, or lose it.</summary>
internal sealed record LinkSettings(double DelayMs, double JitterMs, double LossPercent, int QueueLength, int Seed)
{
    public override string ToString() =>
        FormattableString.Invariant($"{DelayMs} ms ± {JitterMs} ms each way, {LossPercent} % lost, up to {QueueLength} packets held each way");
}
