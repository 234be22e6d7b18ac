using ProtocolBench.Lab.Conditions;

namespace ProtocolBench.Benchmarks.Reporting.Summary;

/// <summary>
/// Kamiński et al.'s orderings per operation (gRPC fastest, GraphQL slowest, WebSocket the fewest bytes) against this
/// run's rankings and bytes, through this run's client: run it with --client python (his kind of client, as --as
/// kaminski does) and with --client dotnet to see which hold through which.
/// </summary>
internal sealed class KaminskiSection(ResultSet results, BenchmarkRun run)
{
    private string Client => run.Conditions.Client.Name();

    private Table? Table()
    {
        var scenarios = Papers.KaminskiScenarios.Select(Catalogue.Named).Where(results.Has).ToList();
        if (scenarios.Count == 0)
        {
            return null;
        }

        var table = new Table("Operation", "Transport", "Kamiński", $"This run (client {Client})", "Holds") { TextColumns = 5 };
        foreach (var scenario in scenarios)
        {
            foreach (var transport in Display.Transports.Where(t => results.RankingOf(scenario, t) is not null))
            {
                var ranking = results.RankingOf(scenario, transport)!.Ranking;
                table.Add(scenario.Short, Display.Of(transport), "gRPC fastest", Tier(ranking, first: true), Holds(ranking, Protocol.Grpc, first: true));
                table.Add(scenario.Short, Display.Of(transport), "GraphQL slowest", Tier(ranking, first: false), Holds(ranking, Protocol.GraphQL, first: false));
                var (bytes, holds) = FewestBytes(scenario, transport);
                table.Add(scenario.Short, Display.Of(transport), "WebSocket the fewest bytes", bytes, holds);
            }
        }

        return table;
    }

    private static string Tier(Ranking ranking, bool first) =>
        !ranking.Tested ? "no ranking (one round)"
        : $"{(first ? "fastest" : "slowest")}: {string.Join(", ", first ? ranking.Tiers[0] : ranking.Tiers[^1])}";

    /// <summary>
    /// Yes when the protocol alone is the first (last) tier; tied when it shares it and is level with the others there;
    /// undecided when a pair in it is undecided; no when it is not in it.
    /// </summary>
    private static string Holds(Ranking ranking, Protocol protocol, bool first)
    {
        if (!ranking.Tested)
        {
            return "–";
        }

        var tier = first ? ranking.Tiers[0] : ranking.Tiers[^1];
        var name = Display.Of(protocol);
        if (!tier.Contains(name))
        {
            return ranking.Tiers.Any(t => t.Contains(name)) ? "no" : $"no {name} cell";
        }

        var others = tier.Where(t => t != name).ToList();
        return others.Count == 0 ? "yes"
            : others.All(o => ranking.Pair(name, o).State == PairState.Level) ? $"tied (level with {string.Join(", ", others)})"
            : $"undecided (against {string.Join(", ", others.Where(o => ranking.Pair(name, o).State != PairState.Level))})";
    }

    /// <summary>The fewest bytes on the wire a call of the row (SignalR's JSON or MessagePack is his WebSocket), or why it cannot say.</summary>
    private (string Bytes, string Holds) FewestBytes(Scenario scenario, Transport transport)
    {
        var cells = Display.Protocols.Select(p => results.Find(scenario, p, transport)).OfType<CellResult>().Where(c => c.Wire is not null).ToList();
        if (cells.Count == 0)
        {
            return ($"bytes on the wire are not read through the {Client} client", "–");
        }

        var fewest = cells.MinBy(c => c.Wire!.TotalPerOp)!;
        var bytes = $"fewest: {Display.Of(fewest.Protocol)} {fewest.Wire!.TotalPerOp.ToString("N0", SummaryText.Invariant)} B";
        return !cells.Any(c => c.Protocol is Protocol.SignalR or Protocol.SignalRMessagePack)
            ? (bytes, "no SignalR cell")
            : (bytes, fewest.Protocol is Protocol.SignalR or Protocol.SignalRMessagePack ? "yes" : "no");
    }

    public SummarySection Section() => new("Kamiński's orderings",
        "Kamiński et al. 2023 (Python clients and servers, MongoDB): gRPC the fastest and GraphQL the slowest on each operation, WebSocket " +
        "the fewest bytes. Here against this run's rankings (\"Which protocol is faster\": tiers by the 10 % rule; tied: level with the " +
        "others of its tier; undecided: the rounds could not tell it from one of them) and bytes on the wire, through this run's client. His WebSocket is SignalR's here (JSON or MessagePack). " +
        "--as kaminski measures through Python's clients; run the same with --client dotnet and compare the two (docs/presets.md, \"kaminski\").",
        Table(), null);
}
