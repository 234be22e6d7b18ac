using System.Collections.Concurrent;
using System.Net.Http;
using System.Net.Sockets;
using System.Text.Json;
using ProtocolBench.Shared.Clients;

namespace ProtocolBench.LoadTests;

public enum OutcomeKind
{
    Ok,
    Failed,
    TimedOut,
    Cancelled,
}

/// <summary>What became of one request. <see cref="Definite"/>: the service certainly did not apply it (a refusal, not a lost answer).</summary>
public readonly record struct Outcome(OutcomeKind Kind, string? Error = null, bool Definite = false)
{
    public static readonly Outcome Ok = new(OutcomeKind.Ok);

    public static Outcome Classify(Exception e, CancellationToken stop, CancellationToken attempt) => e switch
    {
        OperationCanceledException when stop.IsCancellationRequested => new(OutcomeKind.Cancelled, "cancelled"),
        OperationCanceledException when attempt.IsCancellationRequested || e.InnerException is TimeoutException => new(OutcomeKind.TimedOut, "timeout"),
        OperationCanceledException => new(OutcomeKind.Failed, "aborted"),
        ProtocolClientException { Code: "DEADLINE_EXCEEDED" } => new(OutcomeKind.TimedOut, "timeout"),
        ProtocolClientException { Code: "CANCELLED" } when stop.IsCancellationRequested => new(OutcomeKind.Cancelled, "cancelled"),
        ProtocolClientException p => new(OutcomeKind.Failed, $"{p.ProtocolStatus} {p.Code}".Trim(), IsRefusal(p.Code)),
        HttpRequestException h => new(OutcomeKind.Failed, $"transport {h.HttpRequestError}"),
        IOException or SocketException => new(OutcomeKind.Failed, "transport io"),
        JsonException => new(OutcomeKind.Failed, "invalid json"),
        NotSupportedException => new(OutcomeKind.Failed, "not supported", Definite: true),
        _ => new(OutcomeKind.Failed, e.GetType().Name),
    };

    // A 4xx-like refusal happens before any write (docs/limits-and-errors.md); a 5xx, UNAVAILABLE or a reset may or may not have committed.
    private static bool IsRefusal(string code) =>
        code is "INVALID_ARGUMENT" or "NOT_FOUND" or "ALREADY_EXISTS" or "FAILED_PRECONDITION" or "PERMISSION_DENIED"
            or "UNAUTHENTICATED" or "RESOURCE_EXHAUSTED" or "OUT_OF_RANGE" or "UNIMPLEMENTED"
        || (code.StartsWith("HTTP_4", StringComparison.Ordinal) && code != "HTTP_408");
}

/// <summary>The books of one run of requests: issued = ok + failed + timed out + cancelled.</summary>
public sealed class Books
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

    public BooksSummary Summary() => new(Issued, Ok, Failed, TimedOut, Cancelled, Balanced, Errors);
}

public sealed record BooksSummary(
    long Issued, long Ok, long Failed, long TimedOut, long Cancelled, bool Balanced, IReadOnlyDictionary<string, long> Errors)
{
    public long NotOk => Failed + TimedOut + Cancelled;

    public string ErrorText => Errors.Count == 0 ? "0" : string.Join(", ", Errors.Select(e => $"{e.Key}: {e.Value}"));
}

/// <summary>
/// One entry per create request, by marker: acknowledged (with the id the service returned), refused, or unknown
/// (timed out, cancelled, reset: it may or may not have been committed). The database check compares against it.
/// </summary>
public sealed class CreateLedger(string prefix)
{
    private readonly ConcurrentDictionary<string, (OutcomeKind Kind, bool Definite, int Id)> _entries = new();

    /// <summary>Every marker of this ledger starts with it: lt-{run}-{cell}-.</summary>
    public string Prefix { get; } = prefix;

    public IEnumerable<KeyValuePair<string, int>> Acknowledged =>
        _entries.Where(e => e.Value.Kind == OutcomeKind.Ok).Select(e => KeyValuePair.Create(e.Key, e.Value.Id));

    public IEnumerable<string> Refused => _entries.Where(e => e.Value.Kind != OutcomeKind.Ok && e.Value.Definite).Select(e => e.Key);

    public IEnumerable<string> Unknown => _entries.Where(e => e.Value.Kind != OutcomeKind.Ok && !e.Value.Definite).Select(e => e.Key);

    public int Count => _entries.Count;

    public void Record(string marker, Outcome outcome, int id = 0) =>
        _entries[marker] = (outcome.Kind, outcome.Definite, id);
}
