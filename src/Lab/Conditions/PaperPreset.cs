using ProtocolBench.Lab.Network;
using ProtocolBench.Lab.Scenarios;

namespace ProtocolBench.Lab.Conditions;

/// <summary>
/// --as NAME: a paper's set-up as far as it is known (docs/presets.md says what is known and what is assumed): the
/// conditions it measured under, its scenarios and, for the load command, its kind of study. Options given on the
/// command line win over the preset's.
/// </summary>
public sealed record PaperPreset(string Name, string Paper, RunConditions Conditions, IReadOnlyList<string> Scenarios)
{
    /// <summary>
    /// The paced study's rate and requests per cell (the paper's 1 request/s; 60 s a cell rather than its 5 min); null
    /// for a paper of virtual users.
    /// </summary>
    public (double Rate, int Count)? Pacing { get; init; }

    /// <summary>The load command's study for this paper: the paced stream (Bolanowski) or virtual users.</summary>
    public bool Paced => Pacing is not null;

    /// <summary>Virtual users sharing one HTTP/2 connection (k6 gives each of its users its own).</summary>
    public int? UsersPerHttp2Connection { get; init; }

    /// <summary>The protocols the paper compared (the benchmark measures all three anyway; the load command only these).</summary>
    public IReadOnlyList<Protocol> Protocols { get; init; } = Display.Protocols;

    public static readonly IReadOnlyList<PaperPreset> All =
    [
        new("bolanowski", "Bolanowski et al. 2022",
            new RunConditions { Network = NetworkProfile.Named.Single(p => p.Name == "lan-100m"), Connections = ConnectionPolicy.New, Client = ClientStack.Jmeter },
            ["clone-hello", "clone-lorem", "int-max", "ints", "sample", "text-file", "pdf"])
        {
            Pacing = (1, 60),
            Protocols = [Protocol.Rest, Protocol.Grpc],
        },
        new("sliwa", "Śliwa & Pańczyk 2021", new RunConditions(), ["search-3112", "search-111", "search-11", "create"])
        {
            UsersPerHttp2Connection = 1,
        },
        new("kaminski", Papers.Kaminski, new RunConditions { Client = ClientStack.Python }, Papers.KaminskiScenarios),
    ];

    public static PaperPreset Parse(string value) =>
        All.FirstOrDefault(p => p.Name.Equals(value.Trim(), StringComparison.OrdinalIgnoreCase))
        ?? throw new FormatException($"'{value}' is not a preset: {string.Join(", ", All.Select(p => p.Name))}");

    /// <summary>The setup table's row.</summary>
    public string Describe() => $"{Name}: {Paper}'s set-up as far as it is known (docs/presets.md); scenarios {string.Join(", ", Scenarios)}";

    /// <summary>
    /// BenchmarkDotNet filters selecting the preset's scenarios (each over a protocol or in process) and both transport
    /// floors; used when the command line has no filter of its own.
    /// </summary>
    public IReadOnlyList<string> BenchmarkFilters =>
        [.. Scenarios.SelectMany(s => new[] { $"*Scenario: {s},*", $"*Scenario: {s})*" }), "*Suite.Floor.*"];
}
