using System.Text.Json.Serialization;
using ProtocolBench.Lab.Conditions;
using ProtocolBench.Lab.Reports;

namespace ProtocolBench.Lab.Runs;

/// <summary>
/// What a reader needs to know to trust or repeat a run, the same in both commands: in their summary.json and as the
/// first rows of their reports' setup table. A command adds what only it has (the benchmark's job and rounds, the load
/// study's users and rates).
/// </summary>
public record RunDescription
{
    /// <summary><see cref="NewId"/>; empty in the files of versions before it.</summary>
    public string Id { get; init; } = "";

    public required string CommandLine { get; init; }

    public required DateTimeOffset Started { get; init; }

    public DateTimeOffset Finished { get; init; }

    /// <summary>Why the run stopped early (Ctrl+C, SIGTERM), or null when it ran to the end.</summary>
    public string? Interrupted { get; init; }

    public MachineInfo Machine { get; init; } = MachineInfo.Current();

    /// <summary>Where the client and the services ran (<see cref="Pinning.Apply"/>).</summary>
    public required string Pinning { get; init; }

    /// <summary>Whether idle cores polled or halted (<see cref="CpuIdle"/>); empty in the files of versions before it.</summary>
    public string CpuIdle { get; init; } = "";

    public required string Services { get; init; }

    public required string Database { get; init; }

    public required string HttpVersions { get; init; }

    /// <summary>The conditions measured under; runs of versions before them measured under the defaults.</summary>
    public RunConditions Conditions { get; init; } = new();

    [JsonIgnore]
    public TimeSpan Duration => Finished - Started;

    /// <summary>A run is named by when it started (UTC) and four random hex digits: yyMMddHHmmss-xxxx, always 17 characters.</summary>
    public static string NewId(DateTimeOffset started) => $"{started.UtcDateTime:yyMMddHHmmss}-{Random.Shared.Next(0x10000):x4}";

    /// <summary>
    /// The setup table: the machine and the services first, then the conditions and <paramref name="specific"/> (a row of
    /// it named as a condition's takes that row's place), then how the run was started.
    /// </summary>
    public Table Setup(params (string Name, string Value)[] specific)
    {
        var table = new Table("", "") { TextColumns = 2 }
            .Add("Machine", Machine.Describe())
            .Add("Operating system", Machine.OperatingSystem)
            .Add("Runtime", Machine.Runtime)
            .Add("Services", Services)
            .Add("Database", Database)
            .Add("Pinning", Pinning)
            .Add("Idle cores", CpuIdle.Length > 0 ? CpuIdle : "not recorded (a run before idle polling)")
            .Add("HTTP versions", HttpVersions);
        var conditions = Conditions.Describe().ToList();
        foreach (var (name, value) in conditions)
        {
            table.Add(name, specific.FirstOrDefault(row => row.Name == name).Value ?? value);
        }

        foreach (var (name, value) in specific.Where(row => conditions.All(condition => condition.Name != row.Name)))
        {
            table.Add(name, value);
        }

        return table
            .Add("Command", CommandLine)
            .Add("Started", Started.ToString("yyyy-MM-dd HH:mm:ss zzz", CultureInfo.InvariantCulture))
            .Add("Duration", Format.Duration(Duration) + (Interrupted is { } why ? $" (interrupted: {why})" : ""));
    }
}
