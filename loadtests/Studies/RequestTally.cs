using System.Collections.Concurrent;

namespace ProtocolBench.LoadTests.Studies;

/// <summary>The tally of one run of requests: issued = ok + failed + timed out + cancelled.</summary>
public sealed class RequestTally
{
    private readonly ConcurrentDictionary<string, long> _errors = new();
    private long _issued;
    private long _ok;
    private long _failed;
    private long _timedOut;
    private long _cancelled;

    public long Issued => Interlocked.Read(ref _issued);

    public long Ok => Interlocked.Read(ref _ok);

    public long Failed => Interlocked.Read(ref _failed);

    public long TimedOut => Interlocked.Read(ref _timedOut);

    public long Cancelled => Interlocked.Read(ref _cancelled);

    public long Settled => Ok + Failed + TimedOut + Cancelled;

    public bool Balanced => Issued == Settled;

    public IReadOnlyDictionary<string, long> Errors => new SortedDictionary<string, long>(_errors);

    public void Issue() => Interlocked.Increment(ref _issued);

    public void Settle(Outcome outcome)
    {
        switch (outcome.Kind)
        {
            case OutcomeKind.Ok:
                Interlocked.Increment(ref _ok);
                return;
            case OutcomeKind.Failed:
                Interlocked.Increment(ref _failed);
                break;
            case OutcomeKind.TimedOut:
                Interlocked.Increment(ref _timedOut);
                break;
            default:
                Interlocked.Increment(ref _cancelled);
                break;
        }

        _errors.AddOrUpdate(outcome.Error ?? outcome.Kind.ToString(), 1, (_, n) => n + 1);
    }

    public TallySummary Summary() => new(Issued, Ok, Failed, TimedOut, Cancelled, Balanced, Errors);
}
