namespace ProtocolBench.LinkDelayer;

/// <summary>How late packets were (let go after they were due, or read after the kernel received them), in microseconds: a fixed histogram, so recording allocates nothing.</summary>
internal sealed class Lateness
{
    private const int Buckets = 100_000;
    private readonly long[] _counts = new long[Buckets + 1];
    private long _total;
    private double _maxMicroseconds;

    public void Record(long ticks)
    {
        var microseconds = Math.Max(0, ticks * 1e6 / Stopwatch.Frequency);
        _counts[(int)Math.Min(Buckets, microseconds)]++;
        _total++;
        _maxMicroseconds = Math.Max(_maxMicroseconds, microseconds);
    }

    /// <summary>"median 12 µs, 99th percentile 80 µs, max 310 µs", or "no packets".</summary>
    public string Describe() => _total == 0
        ? "no packets"
        : $"median {Percentile(0.5)} µs, 99th percentile {Percentile(0.99)} µs, max {_maxMicroseconds:0} µs";

    private int Percentile(double fraction)
    {
        var rank = (long)Math.Ceiling(fraction * _total);
        long seen = 0;
        for (var bucket = 0; bucket < _counts.Length; bucket++)
        {
            seen += _counts[bucket];
            if (seen >= rank)
            {
                return bucket;
            }
        }

        return Buckets;
    }
}
