namespace ProtocolBench.LoadTests.Studies;

/// <summary>
/// Virtual users sending one scenario back to back, no think time, or one request every <see cref="Interval"/> each
/// (constant pacing; each user's first waits a random share of one interval, so the users' requests spread over it):
/// each user a task with its own histogram (merged with Add afterwards), a count or a deadline, and its own timeout on
/// every request (the sender's).
/// A response that fails its check counts as failed, and only successful requests enter the histograms.
/// </summary>
public sealed class UserLoad
{
    private readonly ScenarioSender _sender;
    private readonly IReadOnlyList<IProtocolClient> _clients;
    private readonly int _requestsPerUser;
    private readonly TimeSpan? _duration;
    private long _deadline;
    private readonly LongHistogram[] _histograms;
    private long _completed;

    public UserLoad(ScenarioSender sender, IReadOnlyList<IProtocolClient> clients, int users, int requestsPerUser, TimeSpan? duration = null)
    {
        _sender = sender;
        _clients = clients;
        _requestsPerUser = requestsPerUser;
        Users = users;
        _duration = duration;
        _histograms = new LongHistogram[users];
        HighestTrackableMicros = (long)Math.Max(TimeSpan.FromMinutes(1).TotalMicroseconds, 2 * sender.Backstop.TotalMicroseconds);
    }

    public int Users { get; }

    /// <summary>Each user's time from one request's start to the next's; null: back to back.</summary>
    public TimeSpan? Interval { get; init; }

    public long HighestTrackableMicros { get; }

    public RequestTally Tally => _sender.Tally;

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
            // A user that crashed left requests issued but not settled: the tally will show it.
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
        // Not new Random(user): the first values of consecutive seeds follow the seed, which put 10 users in two bursts of 5.
        var due = Stopwatch.GetTimestamp() + (long)((Interval?.TotalSeconds ?? 0) * Random.Shared.NextDouble() * Stopwatch.Frequency);
        for (var i = 0; i < _requestsPerUser; i++)
        {
            if (Interval is { } interval)
            {
                if (Stopwatch.GetElapsedTime(Stopwatch.GetTimestamp(), due) is { Ticks: > 0 } wait)
                {
                    try
                    {
                        await Task.Delay(wait, stop).ConfigureAwait(false);
                    }
                    catch (OperationCanceledException)
                    {
                        return;
                    }
                }

                due += (long)(interval.TotalSeconds * Stopwatch.Frequency);
            }

            if (stop.IsCancellationRequested || (_deadline != 0 && Stopwatch.GetTimestamp() >= _deadline))
            {
                return;
            }

            var attempt = await _sender.SendAsync(client, _sender.Marker($"{user}-{i}"), stop).ConfigureAwait(false);
            if (attempt.Ok)
            {
                histogram.RecordValue(Math.Clamp((long)attempt.Elapsed.TotalMicroseconds, 1, HighestTrackableMicros));
            }

            Interlocked.Increment(ref _completed);
        }
    }
}
