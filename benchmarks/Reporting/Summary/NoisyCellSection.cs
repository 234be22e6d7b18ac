namespace ProtocolBench.Benchmarks.Reporting.Summary;

/// <summary>The cells that moved more between rounds than their row mates, whose pairs are judged on their own variance.</summary>
internal sealed class NoisyCellSection(ResultSet results)
{
    /// <summary>Every flagged cell with how much it and its row mates moved a round and the check's p-value; null when there is none.</summary>
    private Table? Table()
    {
        var noisy = results.Rankings().SelectMany(r => results.NoisierCells(r.Scenario, r.Transport)).ToList();
        if (noisy.Count == 0)
        {
            return null;
        }

        var table = new Table("Operation", "Transport", "Protocol", "Moved a round", "Row mates moved", "p", "Rounds checked") { TextColumns = 3 };
        foreach (var (cell, check) in noisy)
        {
            table.Add(cell.Scenario.Short, Display.Of(cell.Transport), Display.Of(cell.Protocol),
                Percent(check.Moved), Percent(check.OthersMoved), check.P.ToString("0.000", SummaryText.Invariant), check.Rounds.ToString(SummaryText.Invariant));
        }

        return table;
    }

    private static string Percent(double logSd) => (logSd * 100).ToString("0.0", SummaryText.Invariant) + " %";

    public SummarySection Section() => new("Cells noisier than their row",
        "A row's pairs are judged against the row's round-to-round noise, which assumes its cells move alike. Each cell is checked " +
        $"against its row mates (an F test of its movement against theirs, at {RowNoise.NoisierLevel:P0}: docs/methodology.md, " +
        "\"A cell noisier than its row\"); the cells below moved more, so their pairs are judged on their own paired variance instead " +
        "(wider intervals, fewer pairs decided, none decided falsely by the others' calm). " + (results.Design.Sequential
            ? $"A cell flagged at the first look stays flagged; its pairs measured to the last look are read there at {results.Design.ConfidenceAt(results.Design.Maximum, noisierCell: true):P0}. "
            : "") +
        "Movement: the residual SD of the log medians a round; rounds checked: the rounds of the check that flagged it.",
        Table(), null);
}
