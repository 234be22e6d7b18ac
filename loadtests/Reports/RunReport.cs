using System.Runtime.InteropServices;
using ProtocolBench.Shared.Clients;

namespace ProtocolBench.LoadTests.Reports;

public sealed record Machine(string Cpu, int Cores, double MemoryGiB, string Os, string Runtime, string DriverCpus, string ServerCpus)
{
    public static Machine Describe(string driverCpus, string serverCpus)
    {
        var cpu = File.Exists("/proc/cpuinfo")
            ? File.ReadLines("/proc/cpuinfo").FirstOrDefault(l => l.StartsWith("model name", StringComparison.Ordinal))?.Split(':', 2)[1].Trim()
            : null;
        return new Machine(
            cpu ?? RuntimeInformation.ProcessArchitecture.ToString(),
            Environment.ProcessorCount,
            Math.Round(GC.GetGCMemoryInfo().TotalAvailableMemoryBytes / (1024.0 * 1024 * 1024), 1),
            RuntimeInformation.OSDescription,
            RuntimeInformation.FrameworkDescription,
            driverCpus,
            serverCpus);
    }

    public string Summary => $"{Cores} cores ({Cpu}), {MemoryGiB:0.#} GiB, {Os}, {Runtime}; driver on {DriverCpus}, services on {ServerCpus}";
}

public sealed record Settings(
    IReadOnlyList<Protocol> Protocols,
    IReadOnlyList<Transport> Transports,
    IReadOnlyList<int> Users,
    int RequestsPerUser,
    int WarmupPerUser,
    int WarmupTotal,
    IReadOnlyList<string> UserScenarios,
    IReadOnlyList<string> PacedScenarios,
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
    public bool BooksBalanced => Users.All(c => c.Books.Balanced && c.Warmup.Balanced) && Paced.All(c => c.Books.Balanced);

    public IEnumerable<NothingLostResult> NothingLostChecks =>
        Users.Select(c => c.NothingLost).Concat(Paced.Select(c => c.NothingLost)).OfType<NothingLostResult>();

    public long Errors => Users.Sum(c => c.Books.Failed + c.Books.TimedOut) + Paced.Sum(c => c.Books.Failed + c.Books.TimedOut);

    public TimeSpan Duration => Finished - Started;
}
