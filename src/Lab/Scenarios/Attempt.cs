namespace ProtocolBench.Lab.Scenarios;

/// <summary>
/// What became of one <see cref="Scenario.AttemptAsync"/>: its outcome, when it started (a Stopwatch timestamp), how long
/// it took, and the id of the author it created (0 when none came back).
/// </summary>
public readonly record struct Attempt(Outcome Outcome, long Started, TimeSpan Elapsed, int CreatedId)
{
    public bool Ok => Outcome.Kind == OutcomeKind.Ok;
}
