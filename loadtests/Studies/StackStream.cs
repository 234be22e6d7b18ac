using ProtocolBench.Lab.Conditions;
using ProtocolBench.Lab.Stacks;

namespace ProtocolBench.LoadTests.Studies;

/// <summary>
/// The paced stream through another client stack (--client): that stack's own process sends it on the schedule and times
/// each request (<see cref="StackRunner.PaceAsync"/>); every answer is read and checked here as the .NET client's are, and
/// a wrong one counts as failed. Its bytes on the wire are not read. A create is not made: the stack sends one recorded
/// request again and again, and each create must write a name of its own for the nothing-lost check.
/// </summary>
public sealed class StackStream(LoadTestOptions options, ClientOptions client)
{
    private readonly ClientStack _stack = options.Common.Conditions.Client;
    private readonly StackRunner _runner = new(options.Common.Conditions.Client, client);

    public async Task<PacedCell> RunCellAsync(Scenario scenario, Protocol protocol, Transport transport, string label, LiveProgress progress, CancellationToken stop)
    {
        var (call, cannotMake) = scenario.Creates
            ? (null, $"the {_stack.Name()} stack sends one recorded request again and again, and each create needs a name of its own")
            : await PortableScenario.ForAsync(_stack, scenario, protocol, "");
        if (call is null)
        {
            return PacedCell.Empty(scenario, protocol, transport, options.Rate, options.Count, $"skipped: {cannotMake}");
        }

        var received = new List<StackRunner.PacedRequest>();
        var completed = 0L;
        progress.Begin($"{label} [grey](through {_stack.Name()})[/]", options.Count, () => Interlocked.Read(ref completed));
        var newConnection = options.Common.Conditions.Connections == ConnectionPolicy.New;
        var pacing = new StackRunner.Pacing(options.Rate, options.Count, options.PacedWarmup, PacedStudy.Settle);
        byte[]? first = null;
        var status = UserCell.Complete;
        try
        {
            first = (await _runner.PaceAsync(new StackRunner.Cell(call, transport, newConnection), pacing, request =>
            {
                received.Add(request);
                Interlocked.Increment(ref completed);
            }, stop)).First;
        }
        catch (Exception e) when (e is InvalidDataException or TimeoutException)
        {
            status = $"failed: {e.Message}";
        }
        catch (OperationCanceledException) when (stop.IsCancellationRequested)
        {
            status = "interrupted";
        }

        // The requests the stack reported, each settled by its answer's check (the first's verdict for every answer equal to it).
        var tally = new RequestTally();
        var firstOutcome = first is null ? Outcome.InvalidResponse : (await PortableScenario.JudgeAsync(scenario, protocol, "", first)).Outcome;
        var samples = new List<PacedSample>(received.Count);
        var interval = 1000 / options.Rate;
        foreach (var request in received)
        {
            var outcome = request.Outcome switch
            {
                OutcomeKind.Ok => request.Answer is { } answer ? (await PortableScenario.JudgeAsync(scenario, protocol, "", answer)).Outcome : firstOutcome,
                OutcomeKind.TimedOut => new Outcome(OutcomeKind.TimedOut, "timeout"),
                _ => Outcome.Failure(request.Code ?? "failed"),
            };
            tally.Issue();
            tally.Settle(outcome);
            var scheduled = request.Index * interval;
            samples.Add(new PacedSample(
                request.Index, scheduled, scheduled + request.LateMs, request.ElapsedMs, outcome.Kind,
                request.Message is null ? outcome.Error : $"{outcome.Error}: {request.Message}"));
        }

        return PacedCell.Of(scenario, protocol, transport, options.Rate, options.Count, status, samples, bytes: null, tally.Summary(), nothingLost: null);
    }
}
