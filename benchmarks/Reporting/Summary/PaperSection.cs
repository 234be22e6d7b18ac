namespace ProtocolBench.Benchmarks.Reporting.Summary;

/// <summary>Our times laid out like Bolanowski et al.'s, their medians beside ours.</summary>
internal sealed class PaperSection(ResultSet results, BenchmarkRun run)
{
    /// <summary>Whether the paper's figures were measured under this run's conditions, and what to run if not.</summary>
    private string LikeWithLike => run.Conditions.Preset == "bolanowski"
        ? "This run measured under the paper's set-up as far as it is known (--as bolanowski, docs/presets.md; see Network and " +
          "Connections above for what could not be emulated)."
        : "This run's conditions are not the paper's (see Network and Connections above): compare orders and ratios, not absolute " +
          "times; --as bolanowski measures under the paper's set-up as far as it is known.";

    private Table Table()
    {
        // The paper measured REST and gRPC; the other protocols follow with our figures only.
        var beyond = Display.Protocols.Where(p => p is not (Protocol.Rest or Protocol.Grpc)).ToList();
        var table = new Table([
            "Scenario", "REST HTTP ms (paper)", "gRPC HTTP ms (paper)", "REST HTTPS ms (paper)", "gRPC HTTPS ms (paper)",
            .. beyond.SelectMany(p => Display.Transports.Select(t => $"{Display.Of(p, t)} ms"))]);
        foreach (var scenario in Catalogue.All.Where(results.Has))
        {
            TableCell Cell(Protocol protocol, Transport transport, double? paper)
            {
                var cell = results.Find(scenario, protocol, transport);
                var text = cell is null ? "–" : Format.Milliseconds(cell.Time);
                if (paper is { } value)
                {
                    text += $" ({value.ToString(SummaryText.Invariant)})";
                }

                var ranking = results.RankingOf(scenario, transport);
                return new TableCell(text, ranking is { Named: true } && cell is not null && ranking.Says == Display.Of(protocol));
            }

            var p = scenario.Paper;
            table.Add([
                scenario.Label,
                Cell(Protocol.Rest, Transport.Http, p?.RestHttp),
                Cell(Protocol.Grpc, Transport.Http, p?.GrpcHttp),
                Cell(Protocol.Rest, Transport.Https, p?.RestHttps),
                Cell(Protocol.Grpc, Transport.Https, p?.GrpcHttps),
                .. beyond.SelectMany(other => Display.Transports.Select(t => Cell(other, t, null)))]);
        }

        return table;
    }

    public SummarySection Section() => new("Times beside the paper",
        "Our times in milliseconds, laid out like Bolanowski et al. 2022 (docs/methodology.md, \"The papers\"); the paper's medians in parentheses " +
        "(two machines on a LAN, JMeter, 1 request/s). Bold: the named winner on that transport. " + LikeWithLike,
        Table(), null);
}
