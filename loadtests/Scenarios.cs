using ProtocolBench.Lab.CommandLine;
using ProtocolBench.Lab.Scenarios;

namespace ProtocolBench.LoadTests;

/// <summary>The catalogue's scenarios by the names the command line uses.</summary>
public static class Scenarios
{
    public static Scenario Named(string name) =>
        Catalogue.Find(name) is { Call: not null } scenario
            ? scenario
            : throw new UsageException($"Unknown scenario '{name}'. Known: {string.Join(", ", Catalogue.Names)}, or I..VII.");
}
