namespace ProtocolBench.Benchmarks.Reporting.Summary;

/// <summary>The pairs a run left undecided, with their intervals.</summary>
internal sealed class UndecidedSection(ResultSet results)
{
    /// <summary>Every pair the run left undecided, with its interval; null when there is none.</summary>
    private Table? Table()
    {
        var rows = results.Rankings().Where(r => r.Ranking.Undecided.Any()).ToList();
        if (rows.Count == 0)
        {
            return null;
        }

        var table = new Table("Operation", "Transport", "Pair (slower ÷ faster [interval])", "Rounds") { TextColumns = 3, TrailingTextColumns = 1 };
        foreach (var row in rows)
        {
            foreach (var pair in row.Ranking.Undecided)
            {
                table.Add(row.Scenario.Short, Display.Of(row.Transport), pair.Pair(), row.Rounds.ToString(SummaryText.Invariant));
            }
        }

        return table;
    }

    public SummarySection Section() => new("Undecided pairs",
        "The pairs whose interval reaches both sides of a 10 % line. A quieter machine (less movement of a cell from round to round) would decide them; on a row marked \"on the line\", more rounds than the design allows would be needed too.",
        Table(), null);
}
