using System.Text.Json.Nodes;
using ProtocolBench.Lab.Stacks;
using ProtocolBench.Shared.Domain.Authors;

namespace ProtocolBench.LoadTests.Studies;

/// <summary>
/// One Locust cell's reports, added up as the .NET driver's cells are: each request issued and settled in the warm-up's
/// or the measurement's tally, each answer a worker sent checked by this project's code (a worker's copies of its first
/// answer settle as that one did), each create entered in the ledger by its name, and every successful measured request's
/// time kept as the worker measured it, in whole microseconds, so the figures are computed from all of them
/// (<see cref="Latency.FromMicros"/>), not from Locust's rounded statistics.
/// </summary>
public sealed class LocustTally(Scenario scenario, Protocol protocol, CreateLedger? ledger)
{
    private readonly Dictionary<string, Outcome> _firsts = [];
    private readonly Dictionary<string, long> _windows = [];
    private readonly List<(string Worker, long Micros)> _timed = [];
    private long _completed;

    public RequestTally Warmup { get; } = new();

    public RequestTally Measured { get; } = new();

    /// <summary>The successful measured requests' times, in microseconds, in the order they were reported.</summary>
    public IReadOnlyList<long> Times => _timed.ConvertAll(timed => timed.Micros);

    /// <summary>The successful measured requests as results/…/locust/CELL.csv holds them: the worker that timed each, and its time in µs.</summary>
    public IEnumerable<object?[]> Rows => _timed.Select(timed => new object?[] { timed.Worker, timed.Micros });

    /// <summary>The connections the workers' users opened.</summary>
    public int Connections { get; private set; }

    public long Completed => Interlocked.Read(ref _completed);

    /// <summary>The measurement's wall time: the longest of the workers' own, each from "go" to its last user's last answer.</summary>
    public double ElapsedSeconds => _windows.Count == 0 ? 0 : _windows.Values.Max() / 1e6;

    public async Task AddAsync(string json)
    {
        var report = JsonNode.Parse(json) ?? throw new InvalidDataException("Locust's master wrote an empty report");
        var worker = (string)report["worker"]!;
        Connections += (int)report["connections"]!;
        if ((long?)report["window_us"] is { } window)
        {
            _windows[worker] = window;
        }

        // The first answer comes in a report no later than its copies: the requests that differ from it, first.
        foreach (var request in report["others"]!.AsArray())
        {
            var outcome = await OutcomeOfAsync(request!);
            if (request!["answer"] is not null && request["marker"] is null)
            {
                _firsts.TryAdd(worker, outcome);
            }

            Settle(worker, (string)request["phase"]!, outcome, (long)request["us"]!);
        }

        foreach (var phase in new[] { "warmup", "measured" })
        {
            foreach (var micros in report["times"]![phase]!.AsArray())
            {
                Settle(worker, phase, _firsts.TryGetValue(worker, out var first) ? first : Outcome.Failure("no first answer"), (long)micros!);
            }
        }
    }

    /// <summary>The measured times as an HdrHistogram (µs), as the .NET driver's cells leave theirs in the results folder.</summary>
    public LongHistogram? Histogram()
    {
        if (_timed.Count == 0)
        {
            return null;
        }

        var times = Times;
        var histogram = new LongHistogram(Math.Max(2, times.Max()), 3);
        foreach (var micros in times)
        {
            histogram.RecordValue(Math.Max(1, micros));
        }

        return histogram;
    }

    private void Settle(string worker, string phase, Outcome outcome, long micros)
    {
        var tally = phase == "measured" ? Measured : Warmup;
        tally.Issue();
        tally.Settle(outcome);
        if (phase == "measured")
        {
            Interlocked.Increment(ref _completed);
            if (outcome.Kind == OutcomeKind.Ok)
            {
                _timed.Add((worker, micros));
            }
        }
    }

    /// <summary>A request's outcome: its answer read and checked here, or the failure the worker saw; a create's entered in the ledger.</summary>
    private async Task<Outcome> OutcomeOfAsync(JsonNode request)
    {
        var name = (string?)request["marker"] is { } suffix ? ledger?.Prefix + suffix : "";
        var outcome = (string)request["kind"]! switch
        {
            "timedout" => new Outcome(OutcomeKind.TimedOut, "timeout"),
            "failed" => Outcome.Failure((string?)request["code"] ?? "failed"),
            _ => Outcome.Ok,
        };
        var id = 0;
        if (outcome.Kind == OutcomeKind.Ok)
        {
            (outcome, var read) = await PortableScenario.JudgeAsync(scenario, protocol, name, Convert.FromBase64String((string)request["answer"]!));
            id = read is AuthorDto author ? author.Id : 0;
        }

        if (ledger is not null && name.Length > 0)
        {
            ledger.Record(name, outcome, id);
        }

        return outcome;
    }
}
