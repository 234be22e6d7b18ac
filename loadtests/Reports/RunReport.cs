using ProtocolBench.Lab;

namespace ProtocolBench.LoadTests.Reports;

/// <summary>A load run as summary.json and the reports hold it: the run description both commands share, what was asked, and what was measured.</summary>
public sealed record RunReport(
    RunDescription Run,
    string Mode,
    IReadOnlyList<string> Problems,
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
}
