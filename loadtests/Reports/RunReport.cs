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
    string? Cleanup,
    IReadOnlyList<RateCell>? Rates = null)
{
    /// <summary>The open-loop sweep's cells (none unless the mode was rate).</summary>
    public IReadOnlyList<RateCell> RateCells => Rates ?? [];

    public bool TallyBalanced =>
        Users.All(c => c.Requests.Balanced && c.Warmup.Balanced) && Paced.All(c => c.Requests.Balanced) && RateCells.All(c => c.Steps.All(s => s.Requests.Balanced));

    public IEnumerable<NothingLostResult> NothingLostChecks =>
        Users.Select(c => c.NothingLost).Concat(Paced.Select(c => c.NothingLost)).Concat(RateCells.Select(c => c.NothingLost)).OfType<NothingLostResult>();

    /// <remarks>The sweep's errors are not counted: a step past saturation is expected to time out, and it ends its cell.</remarks>
    public long Errors => Users.Sum(c => c.Requests.Failed + c.Requests.TimedOut) + Paced.Sum(c => c.Requests.Failed + c.Requests.TimedOut);
}
