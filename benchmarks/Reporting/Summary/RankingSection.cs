namespace ProtocolBench.Benchmarks.Reporting.Summary;

/// <summary>The answer first: which protocol is faster, per operation and transport.</summary>
internal sealed class RankingSection(ResultSet results)
{
    /// <summary>The answer first: per row, each protocol's time, its ratio to REST with the interval, the ranking and its rounds.</summary>
    public Table Table()
    {
        var others = Display.Protocols.Where(p => p != Protocol.Rest).ToList();
        var table = new Table(["Operation", "Transport", .. Display.Protocols.Select(Display.Of), .. others.Select(p => $"{Display.Of(p)} ÷ REST"), "Ranking", "Rounds"])
        {
            TrailingTextColumns = 2,
        };
        foreach (var (scenario, transport) in results.Rows())
        {
            var ranking = results.RankingOf(scenario, transport);
            TableCell Time(Protocol protocol) => results.Find(scenario, protocol, transport) is { } cell
                ? new TableCell(Format.Milliseconds(cell.Time) + " ms", ranking is { Named: true } && ranking.Says == Display.Of(protocol))
                : "–";
            TableCell Ratio(Protocol protocol) => results.Find(scenario, protocol, transport) is { } cell && results.RatioToRest(cell) is { } ratio
                ? ratio.ToString()
                : "–";
            table.Add([
                scenario.Short, Display.Of(transport), .. Display.Protocols.Select(Time), .. others.Select(Ratio),
                new TableCell(ranking?.ToString() ?? "–", ranking is { Named: true }),
                ranking is null ? "–" : Settled(ranking)]);
        }

        return table;
    }

    /// <summary>
    /// How many rounds measured a row, and whether that settled it (every pair decided) or its undecided pairs sit too close
    /// to the 10 % line for the rounds left to decide them.
    /// </summary>
    private string Settled(RowRanking row) =>
        !row.Ranking.Tested ? row.Rounds.ToString(SummaryText.Invariant)
        : row.Ranking.Settled ? $"{row.Rounds}, settled"
        : row.OnTheLine(results.Design)
            ? $"{row.Rounds}, {row.Ranking.Undecided.Count()} undecided (on the line)"
            : $"{row.Rounds}, {row.Ranking.Undecided.Count()} undecided";

    public SummarySection Section() => new("Which protocol is faster",
        "Per operation and transport: each protocol's time (the geometric mean of its rounds' medians), each protocol's time ÷ REST's with its 95 % " +
        "interval (paired round by round: geometric mean of the rounds' ratios, Student's t with the row's round-to-round noise: the residual of its cells over its rounds), the ranking and the rounds that measured the row. " + Rule,
        Table(), null);

    private string Rule => $"Each pair of a row is faster (the whole 95 % interval of slower ÷ faster beyond 1 + {Verdict.PracticalDifference:P0}), level (the whole " +
                   $"interval within {Verdict.PracticalDifference:P0} either way) or undecided, and an undecided pair says what its interval still supports. Tiers: " +
                   "the protocols no other is faster than, then the same among the rest; › between tiers (with the ratio to the fastest), ≈ level within a tier, " +
                   "and for an undecided pair ≳ ahead by under 20 %, > ahead by how much unknown, ~ within 20 %, ? nothing known (each claim as sure as " +
                   "\"faster\" and \"level\": wrong at most 2.5 % of the time); \"not apart\" for " +
                   "pairs the chain would order but are not (docs/methodology.md, \"Rankings\"). A sole winner (bold) is named when tier 1 " +
                   "has one protocol. " + (results.Design.Sequential
                       ? $"Rounds: {results.Design.Describe()}; the interval at a row's last round is a 95 % interval however many rounds it took."
                       : $"Rounds: {results.Design.Describe()}.");
}
