using ProtocolBench.Lab;
using ProtocolBench.Lab.Scenarios;
using ProtocolBench.Shared.Clients;

namespace ProtocolBench.LoadTests.Reports;

/// <summary>The machine and where the driver and the services ran on it.</summary>
public sealed record Machine(MachineInfo Host, string DriverCpus, string ServerCpus)
{
    public string Summary => $"{Host.Describe()}, {Host.OperatingSystem}, {Host.Runtime}; driver on {DriverCpus}, services on {ServerCpus}";
}

public sealed record Settings(
    IReadOnlyList<Protocol> Protocols,
    IReadOnlyList<Transport> Transports,
    IReadOnlyList<int> Users,
    int RequestsPerUser,
    int WarmupPerUser,
    int WarmupTotal,
    IReadOnlyList<Scenario> UserScenarios,
    IReadOnlyList<Scenario> PacedScenarios,
    double Rate,
    int Count,
    int PacedWarmup,
    double TimeoutSeconds,
    int UsersPerHttp2Connection,
    string HttpVersions,
    string Database,
    string Services,
    bool Quick);

/// <summary>One of the papers' findings beside ours. Verdict: reproduced, direction only, not reproduced, not measured.</summary>
public sealed record Finding(string Paper, string Claim, string Ours, string Verdict);

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
