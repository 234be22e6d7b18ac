namespace ProtocolBench.Benchmarks.Reporting.Summary;

/// <summary>The pairs a run left undecided, with their intervals and the strongest claim each interval still supports.</summary>
internal sealed class UndecidedSection(ResultSet results)
{
    /// <summary>Every pair the run left undecided, with its interval and claim; null when there is none.</summary>
    private Table? Table()
    {
        var rows = results.Rankings().Where(r => r.Ranking.Undecided.Any()).ToList();
        if (rows.Count == 0)
        {
            return null;
        }

        var table = new Table("Operation", "Transport", "Pair (slower ÷ faster [interval])", "What is known", "Rounds") { TextColumns = 4, TrailingTextColumns = 1 };
        foreach (var row in rows)
        {
            foreach (var pair in row.Ranking.Undecided.OrderBy(p => p.Claim))
            {
                table.Add(row.Scenario.Short, Display.Of(row.Transport), pair.Pair(), pair.Known, row.Rounds.ToString(SummaryText.Invariant));
            }
        }

        return table;
    }

    public SummarySection Section() => new("Undecided pairs",
        "The pairs whose interval reaches both sides of a 10 % line, each with the strongest claim its interval still supports: " +
        "ahead by under 20 % (≳: the whole interval within 1 and 1.2), ahead by how much unknown (>: above 1, reaching past 1.2), " +
        "within 20 % (~: within 1 ÷ 1.2 and 1.2) or nothing known (?). Each is read from the same interval as \"faster\" and \"level\", " +
        "so it is wrong at most 2.5 % of the time, as they are (docs/methodology.md, \"Claims of undecided pairs\"). A quieter machine " +
        "(less movement of a cell from round to round) would decide them; on a row marked \"on the line\", more rounds than the design allows would be needed too.",
        Table(), null);
}
