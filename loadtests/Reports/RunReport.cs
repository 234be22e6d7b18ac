namespace ProtocolBench.LoadTests.Reports;

public sealed record RunReport(
    string RunId,
    DateTimeOffset Started,
    DateTimeOffset Finished,
    string Command,
    string Mode,
    bool Interrupted,
    string? InterruptReason,
    IReadOnlyList<string> Problems,
    Machine Machine,
    Settings Settings,
    IReadOnlyList<UserCell> Users,
    IReadOnlyList<PacedCell> Paced,
    IReadOnlyList<Finding> Findings,
    DriverCheckResult? DriverCheck,
    string? Cleanup)
{
    public bool TallyBalanced => Users.All(c => c.Requests.Balanced && c.Warmup.Balanced) && Paced.All(c => c.Requests.Balanced);

    public IEnumerable<NothingLostResult> NothingLostChecks =>
        Users.Select(c => c.NothingLost).Concat(Paced.Select(c => c.NothingLost)).OfType<NothingLostResult>();

    public long Errors => Users.Sum(c => c.Requests.Failed + c.Requests.TimedOut) + Paced.Sum(c => c.Requests.Failed + c.Requests.TimedOut);

    public TimeSpan Duration => Finished - Started;
}
