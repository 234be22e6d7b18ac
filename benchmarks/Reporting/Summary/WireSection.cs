namespace ProtocolBench.Benchmarks.Reporting.Summary;

/// <summary>Bytes on the wire per operation, and which protocol moves the fewest (Kamiński et al.).</summary>
internal sealed class WireSection(ResultSet results, BenchmarkRun run)
{
    private Table Table()
    {
        var table = new Table(["Operation (bytes/op; × REST on the same transport)", .. Display.Columns().Select(c => Display.Of(c.Protocol, c.Transport))]);
        foreach (var scenario in Catalogue.All.Where(results.Has))
        {
            table.Add([scenario.Short, .. Display.Columns().Select(c =>
            {
                var wire = results.Find(scenario, c.Protocol, c.Transport)?.Wire;
                var rest = results.Find(scenario, Protocol.Rest, c.Transport)?.Wire;
                if (wire is null)
                {
                    return (TableCell)"–";
                }

                return (TableCell)(rest is null ? Format.Bytes(wire.TotalPerOp) : $"{Format.Bytes(wire.TotalPerOp)} ({Format.Ratio(wire.TotalPerOp / rest.TotalPerOp)})");
            })]);
        }

        return table;
    }

    /// <summary>
    /// Kamiński et al.: "WebSocket moves the fewest bytes". Per operation and transport measured on every protocol, which
    /// protocol moved the fewest, and how often that is SignalR (with either hub protocol).
    /// </summary>
    private string FewestBytes()
    {
        var measured = Display.Protocols.Where(p => results.Cells.Any(c => c.Protocol == p)).ToList();
        var rows = (from scenario in Catalogue.All.Where(s => s.Group != ScenarioGroup.Floor && results.Has(s))
                    from transport in Display.Transports
                    let cells = measured.Select(p => results.Find(scenario, p, transport)).ToList()
                    where cells.All(c => c?.Wire is not null)
                    select (Scenario: scenario, Transport: transport, Fewest: cells.MinBy(c => c!.Wire!.TotalPerOp)!.Protocol)).ToList();
        if (rows.Count == 0)
        {
            return "";
        }

        var signalR = rows.Where(r => r.Fewest.Service() == Protocol.SignalR).ToList();
        var hubProtocols = signalR.GroupBy(r => r.Fewest).OrderBy(g => g.Key).Select(g => $"{g.Count()} with {(g.Key == Protocol.SignalR ? "JSON" : "MessagePack")}");
        var others = rows.Except(signalR).GroupBy(r => r.Fewest).Select(g => $"{Display.Of(g.Key)} in {g.Count()}");
        return $"Kamiński et al. found that WebSocket moves the fewest bytes: here SignalR moves the fewest in " +
               $"{signalR.Count} of the {rows.Count} operations measured on every protocol" +
               (signalR.Count > 0 ? $" ({string.Join(", ", hubProtocols)})" : "") +
               (signalR.Count < rows.Count ? $"; {string.Join(", ", others)}" : "") + ".";
    }

    public SummarySection Section() => new("Bytes on the wire per operation",
        "Request + response bytes at the client's socket (plaintext on HTTP, TLS records on HTTPS; no TCP/IP headers), averaged " +
        "over serial operations" + (run.Conditions.Connections == ConnectionPolicy.New
        ? ", each on a new connection, so with the bytes of opening it (see \"Opening a connection\")"
        : " on an already open connection (the bytes of opening one are under \"Opening a connection\")") +
        "; the ratio is to REST on the same transport. " + FewestBytes(),
        Table(), null);
}
