namespace ProtocolBench.LoadTests.Reports;

/// <summary>What the load run was asked to do beyond the <see cref="Lab.Runs.RunDescription"/>, as summary.json and the report record it.</summary>
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
    bool Quick,
    IReadOnlyList<Scenario> RateScenarios,
    IReadOnlyList<double> Rates,
    double StepSeconds,
    double P99BoundMs)
{
    /// <summary>Who drove the virtual users when it was not this process (--engine locust): the engine, its versions and its workers.</summary>
    public string? UserDriver { get; init; }

    /// <summary>--user-interval: each virtual user's seconds from one measured request's start to the next's; null: back to back.</summary>
    public double? UserIntervalSeconds { get; init; }
}
