using ProtocolBench.Lab.Charts;

namespace ProtocolBench.Benchmarks.Reporting;

/// <summary>
/// The answer at a glance (<see cref="SvgMatrix"/>): a row per operation and transport, a column per protocol; each cell
/// its time, coloured by its time ÷ the row's fastest; tier 1 framed; beside each row its ranking without the ratios, and
/// the undecided pairs the ranking's line does not show.
/// </summary>
public static class MatrixChart
{
    public const string FileName = "matrix.svg";

    private const string Title = "Which protocol is faster: time per operation";

    public static string Svg(ResultSet results, bool narrow = false) =>
        SvgMatrix.Draw(Title, [.. Display.Protocols.Select(Display.Of)], [.. results.Rows().Select(row => Row(results, row.Scenario, row.Transport))], Legend, narrow);

    private static readonly string[] Legend =
    [
        $"Framed: tier 1, the protocols no other is faster than; each cell's second line: its time ÷ the row's fastest, and its tier.",
        $"Rankings: › faster (the whole 95 % interval beyond {Verdict.PracticalDifference:P0}), ≈ level (within {Verdict.PracticalDifference:P0}); " +
        $"undecided: ≳ ahead by under {Verdict.ClaimBound:P0}, > ahead by how much unknown, ~ within {Verdict.ClaimBound:P0}, ? nothing known.",
    ];

    private static MatrixRow Row(ResultSet results, Scenario scenario, Transport transport)
    {
        var ranking = results.RankingOf(scenario, transport)?.Ranking;
        var cells = Display.Protocols.Select(p => results.Find(scenario, p, transport)).ToList();
        var fastest = cells.Where(c => c is { Success: true }).Select(c => c!.Time).DefaultIfEmpty(double.NaN).Min();
        MatrixCell? Cell(CellResult? cell)
        {
            if (cell is null)
            {
                return null;
            }

            if (!cell.Success)
            {
                return new MatrixCell("failed", double.NaN, 0, $"{Display.Of(cell.Protocol, transport)}: failed");
            }

            var name = Display.Of(cell.Protocol);
            var tier = ranking is { Tested: true } ? ranking.Tiers.ToList().FindIndex(t => t.Contains(name)) + 1 : 0;
            var ratio = cell.Time / fastest;
            return new MatrixCell(Format.Time(cell.Time), ratio, tier,
                $"{scenario.Short}, {Display.Of(cell.Protocol, transport)}: {Format.Time(cell.Time)}, {Format.Ratio(ratio)} the fastest" + (tier > 0 ? $", tier {tier}" : ""));
        }

        var (order, note) = ranking is { Tested: true } ? (ranking.Chain(margins: false), Note(ranking)) : (ranking?.ToString() ?? "", null);
        return new MatrixRow(scenario.Short, Display.Of(transport), [.. cells.Select(Cell)], order, note);
    }

    /// <summary>
    /// What the ranking's line leaves out: the pairs it orders that are not apart, and the undecided pairs of a tier that are
    /// not neighbours in it, the first <see cref="NoteItems"/> of them; null when it leaves out nothing.
    /// </summary>
    private static string? Note(Ranking ranking)
    {
        var left = ranking.NotApart().Select(p => (Heading: "not apart", Pair: p))
            .Concat(ranking.UndecidedApartInTier().Select(p => (Heading: "also undecided", Pair: p)))
            .ToList();
        var parts = left.Take(NoteItems).GroupBy(i => i.Heading).Select(g => $"{g.Key}: {string.Join(", ", g.Select(i => i.Pair.Sides))}").ToList();
        if (left.Count > NoteItems)
        {
            parts.Add($"{left.Count - NoteItems} more (Undecided pairs)");
        }

        return parts.Count > 0 ? string.Join(" · ", parts) : null;
    }

    /// <summary>The most pairs a row's note names; the section "Undecided pairs" has them all.</summary>
    private const int NoteItems = 4;
}
