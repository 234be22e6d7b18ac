using Microsoft.Diagnostics.Tracing;

namespace ProtocolBench.Lab.Costs;

/// <summary>The meter's reader: the runtime's collections as they arrive over EventPipe, kept for <see cref="Read"/>.</summary>
public sealed partial class ServiceMeter
{
    private void Process()
    {
        string ended;
        try
        {
            _source.Process();
            ended = "its diagnostics stream ended";
        }
        catch (Exception e)
        {
            ended = $"reading its diagnostics failed: {e.Message}";
        }

        lock (_gate)
        {
            _ended = ended;
            Monitor.PulseAll(_gate);
        }
    }

    private void OnEvent(TraceEvent e)
    {
        switch (e.EventName)
        {
            case "Collection/Start" when Is(e):
                _open = new Pending { Due = ((DateTime)e.PayloadByName("intervalEndTime")).ToUniversalTime() };
                break;
            case "CounterRateValuePublished" when Is(e) && _open is { } open:
                // Observable counters publish their running total as "value" (since .NET 8); the rate is per interval.
                if (!double.TryParse((string)e.PayloadByName("value"), NumberStyles.Float, CultureInfo.InvariantCulture, out var value))
                {
                    break;
                }

                switch ((string)e.PayloadByName("instrumentName"))
                {
                    case CpuTime when ((string)e.PayloadByName("tags")).Contains("cpu.mode=user", StringComparison.Ordinal):
                        open.User = value;
                        break;
                    case CpuTime:
                        open.System = value;
                        break;
                    case Allocated:
                        open.Allocated = (long)value;
                        break;
                }

                break;
            case "Collection/Stop" when Is(e) && _open is { User: { } user, System: { } system, Allocated: { } allocated } done:
                lock (_gate)
                {
                    _collections.Add(new Collection(done.Due, e.TimeStamp.ToUniversalTime(), user, system, allocated));
                    if (_collections.Count > Kept)
                    {
                        _collections.RemoveRange(0, _collections.Count - Kept);
                    }

                    Monitor.PulseAll(_gate);
                }

                _open = null;
                break;
        }
    }

    /// <summary>Whether an event belongs to this session (another tool's session on the same process gets its own).</summary>
    private bool Is(TraceEvent e) => (string)e.PayloadByName("sessionId") == _sessionId;

    /// <summary>One collection: when it was due, when its last value was written, and the running totals it observed.</summary>
    private sealed record Collection(DateTime Due, DateTime Taken, double User, double System, long Allocated);

    /// <summary>A collection whose values are still arriving.</summary>
    private sealed class Pending
    {
        public DateTime Due { get; init; }

        public double? User { get; set; }

        public double? System { get; set; }

        public long? Allocated { get; set; }
    }
}
