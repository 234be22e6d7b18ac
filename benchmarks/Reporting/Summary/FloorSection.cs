namespace ProtocolBench.Benchmarks.Reporting.Summary;

/// <summary>Each time divided by the transport floor on the same port and HTTP version.</summary>
internal sealed class FloorSection(ResultSet results, BenchmarkRun run)
{
    /// <summary>The floor measured under the run's connection policy: what every operation's time contains too.</summary>
    private Scenario Floor => run.Conditions.Connections == ConnectionPolicy.New ? Catalogue.FloorNewConnection : Catalogue.Floor;

    private Table Table()
    {
        var floor = Floor;
        var table = new Table(["Operation ÷ floor", .. Display.Columns().Select(c => Display.Of(c.Protocol, c.Transport))]);
        table.Add(["Floor time", .. Display.Columns().Select(c => (TableCell)(results.Find(floor, c.Protocol, c.Transport) is { } f ? Format.Time(f.Time) : "–"))]);
        foreach (var scenario in Catalogue.All.Where(s => s.Group != ScenarioGroup.Floor && results.Has(s)))
        {
            table.Add([scenario.Short, .. Display.Columns().Select(c =>
            {
                var cell = results.Find(scenario, c.Protocol, c.Transport);
                var f = results.Find(floor, c.Protocol, c.Transport);
                return (TableCell)(cell is null || f is null ? "–" : results.Ratio(f, cell).ToString());
            })]);
        }

        return table;
    }

    public SummarySection Section() => new("Above the transport floor",
        "Each time divided by the floor (GET /baseline, fixed bytes) on the same service port and HTTP version" +
        (Floor == Catalogue.FloorNewConnection ? ", on a new connection as every operation here" : "") + ", with its 95 % " +
        "interval over the rounds: how much of an operation is the protocol and its work rather than the round trip itself.",
        Table(), null);
}
