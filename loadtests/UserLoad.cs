using System.Diagnostics;
using HdrHistogram;
using ProtocolBench.Lab.Scenarios;
using ProtocolBench.Shared.Clients;
using ProtocolBench.Shared.Domain.Authors;

namespace ProtocolBench.LoadTests;

/// <summary>
/// Virtual users sending one scenario back to back, no think time: each user a task with its own histogram
/// (merged with Add afterwards), a count or a deadline, and its own timeout on every request.
/// The clock stops when the call returns; the response is checked after that and a wrong one counts as failed.
/// </summary>
public sealed class UserLoad
{
    private readonly Scenario _scenario;
    private readonly IReadOnlyList<IProtocolClient> _clients;
    private readonly int _requestsPerUser;
    private readonly TimeSpan? _duration;
    private long _deadline;
    private readonly TimeSpan _backstop;
    private readonly string _markerPrefix;
    private readonly LongHistogram[] _histograms;
    private long _completed;

    public UserLoad(
        Scenario scenario,
        IReadOnlyList<IProtocolClient> clients,
        int users,
        int requestsPerUser,
        TimeSpan timeout,
        string markerPrefix = "",
        CreateLedger? ledger = null,
        TimeSpan? duration = null)
    {
        _scenario = scenario;
        _clients = clients;
        _requestsPerUser = requestsPerUser;
        _markerPrefix = markerPrefix;
        Ledger = ledger;
        Users = users;
        // The client's own timeout or deadline fires first; this one also bounds reading a body that stalls.
        _backstop = timeout + TimeSpan.FromSeconds(1);
        _duration = duration;
        _histograms = new LongHistogram[users];
        HighestTrackableMicros = (long)Math.Max(TimeSpan.FromMinutes(1).TotalMicroseconds, 2 * _backstop.TotalMicroseconds);
    }

    public int Users { get; }

    public long HighestTrackableMicros { get; }

    public Books Books { get; } = new();

    public CreateLedger? Ledger { get; }

    public long Completed => Interlocked.Read(ref _completed);

    public long Planned => _duration is null ? (long)Users * _requestsPerUser : 0;

    public TimeSpan Elapsed { get; private set; }

    /// <summary>Starts every user at once and returns when all have finished (or stopped).</summary>
    public async Task RunAsync(CancellationToken stop)
    {
        var started = Stopwatch.GetTimestamp();
        _deadline = _duration is { } d ? started + (long)(d.TotalSeconds * Stopwatch.Frequency) : 0;
        var users = Enumerable.Range(0, Users).Select(u => Task.Run(() => UserAsync(u, stop), CancellationToken.None)).ToArray();
        try
        {
            await Task.WhenAll(users).ConfigureAwait(false);
        }
        catch (Exception) when (users.Any(u => u.IsFaulted))
        {
            // A user that crashed left requests issued but not settled: the books will show it.
        }

        Elapsed = Stopwatch.GetElapsedTime(started);
    }

    /// <summary>All users' latencies in one histogram, in microseconds (successful requests only).</summary>
    public LongHistogram Merged()
    {
        var merged = NewHistogram();
        foreach (var histogram in _histograms)
        {
            if (histogram is not null)
            {
                merged.Add(histogram);
            }
        }

        return merged;
    }

    private LongHistogram NewHistogram() => new(HighestTrackableMicros, 3);

    private async Task UserAsync(int user, CancellationToken stop)
    {
        var client = _clients[user % _clients.Count];
        var histogram = _histograms[user] = NewHistogram();
        for (var i = 0; i < _requestsPerUser; i++)
        {
            if (stop.IsCancellationRequested || (_deadline != 0 && Stopwatch.GetTimestamp() >= _deadline))
            {
                return;
            }

            var marker = _scenario.Creates ? $"{_markerPrefix}{user}-{i}" : "";
            Books.Issue();
            using var attempt = CancellationTokenSource.CreateLinkedTokenSource(stop);
            attempt.CancelAfter(_backstop);
            object? result = null;
            Outcome outcome;
            var start = Stopwatch.GetTimestamp();
            try
            {
                result = await _scenario.Call!(client, marker, attempt.Token).ConfigureAwait(false);
                outcome = Outcome.Ok;
            }
            catch (Exception e)
            {
                outcome = Outcome.Classify(e, stop, attempt.Token);
            }

            var micros = (long)Stopwatch.GetElapsedTime(start).TotalMicroseconds;
            if (result is not null && _scenario.ProblemWith(result, marker) is not null)
            {
                outcome = new Outcome(OutcomeKind.Failed, "invalid response");
            }

            if (outcome.Kind == OutcomeKind.Ok)
            {
                histogram.RecordValue(Math.Clamp(micros, 1, HighestTrackableMicros));
            }

            Ledger?.Record(marker, outcome, (result as AuthorDto)?.Id ?? 0);
            Books.Settle(outcome);
            Interlocked.Increment(ref _completed);
        }
    }
}

/// <summary>Latency figures of one histogram, in milliseconds.</summary>
public sealed record Latency(long Count, double MeanMs, double P50Ms, double P90Ms, double P95Ms, double P99Ms, double MaxMs)
{
    public static Latency From(HistogramBase h) => h.TotalCount == 0
        ? new Latency(0, double.NaN, double.NaN, double.NaN, double.NaN, double.NaN, double.NaN)
        : new Latency(
            h.TotalCount,
            h.GetMean() / 1000,
            h.GetValueAtPercentile(50) / 1000.0,
            h.GetValueAtPercentile(90) / 1000.0,
            h.GetValueAtPercentile(95) / 1000.0,
            h.GetValueAtPercentile(99) / 1000.0,
            h.GetMaxValue() / 1000.0);
}
