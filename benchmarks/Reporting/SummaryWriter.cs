using System.Globalization;
using ProtocolBench.Benchmarks.Reporting.Summary;

namespace ProtocolBench.Benchmarks.Reporting;

/// <summary>
/// The ProtocolBench summary: summary.md and a self-contained summary.html, from the same sections. Its lead lines, then
/// its table of contents (<see cref="Contents"/>), one section a file in Summary/, then the notes and BenchmarkDotNet's reports.
/// </summary>
public sealed class SummaryWriter(ResultSet results, BenchmarkRun run)
{
    public const string MarkdownFile = "summary.md";
    public const string HtmlFile = "summary.html";

    /// <summary>The sections in their order; one without its table or chart (the floors were filtered out) is left out.</summary>
    private IEnumerable<SummarySection> Contents(SummarySection matrix, RankingSection ranking, VerdictSection verdicts) =>
    [
        matrix,
        new EnvironmentSection(results, run).Section(),
        ranking.Section(),
        new UndecidedSection(results).Section(),
        new NoisyCellSection(results).Section(),
        ChartSections.RatioToRest(results),
        new PaperSection(results, run).Section(),
        new KaminskiSection(results, run).Section(),
        verdicts.Section(),
        ChartSections.Times(results),
        new CellSection(results).Section(),
        new FloorSection(results, run).Section(),
        new ConnectionSection(results, run).Section(),
        new DecidingSection(results, run).Section(),
        new OverheadSection(results).Section(),
        new TransferSection(results).Section(),
        new WireSection(results, run).Section(),
        new ServerCostSection(results).Section(),
        ChartSections.ServerCpu(results),
    ];

    /// <summary>Writes both files; returns the console digest.</summary>
    public string Write(string directory, IReadOnlyList<string> reportFiles)
    {
        var matrix = ChartSections.Matrix(results);
        var ranking = new RankingSection(results);
        var rankings = ranking.Table();
        var verdicts = new VerdictSection(results, run.Conditions);
        var verdictLine = verdicts.Line;
        var measured = results.Cells.Count(c => c.Success);
        var failed = results.Cells.Count(c => !c.Success);
        var rows = results.Rankings().ToList();
        var headline = $"{measured} cells measured{(failed > 0 ? $", {failed} FAILED" : "")} in {results.Rounds} round(s); job: {run.Job}." +
                       (run.Interrupted is { } why ? $" Interrupted ({why}): partial results." : "");
        var (spread, spread90, spreadCells) = results.Stability();
        string[] pairsLines = rows.Any(r => r.Ranking.Tested) ? [PairsLine(rows), ClaimsLine(rows)]
            : [$"No row has a ranking: pairs need two or more rounds (the default job runs {RoundDesign.Default.Minimum} to {RoundDesign.Default.Maximum}; --rounds N)."];
        var stabilityLine = spreadCells == 0
            ? "Stability: one round, so nothing to compare it with."
            : $"Stability of this run: the cells' medians moved by {spread:P0} between rounds (median over {spreadCells} cells; 90th percentile {spread90:P0}).";

        var report = new Report("ProtocolBench results");
        foreach (var line in (string[])[headline, .. pairsLines, stabilityLine, verdictLine])
        {
            report.Lead(line);
        }

        foreach (var section in Contents(matrix, ranking, verdicts).Where(s => !s.IsEmpty))
        {
            report.Section(section.Title).Note(section.Intro);
            if (section.Table is not null)
            {
                report.Add(section.Table);
            }
            else
            {
                report.Figure(section.Svg!, section.Markdown ?? $"See [{HtmlFile}]({HtmlFile}).", section.NarrowSvg);
            }
        }

        report.Section("Notes").Bullets(SummaryNotes.For(run), note: true);
        // Round by round (round-2 before round-10), the same whether the run or `report` lists them.
        report.Section("BenchmarkDotNet reports").Bullets(reportFiles.Order(StringComparer.Create(CultureInfo.InvariantCulture, CompareOptions.NumericOrdering))
            .Select(file => $"[{file}]({Uri.EscapeDataString(file).Replace("%2F", "/")})"));
        report.Write(directory, Path.GetFileNameWithoutExtension(MarkdownFile));
        File.WriteAllText(Path.Combine(directory, PairsCsv.FileName), PairsCsv.Of(results));
        File.WriteAllText(Path.Combine(directory, MatrixChart.FileName), matrix.Svg);
        return $"{rankings.ToText()}\n{headline}\n{string.Join("\n", pairsLines)}\n{stabilityLine}\n{verdictLine}\n";
    }

    /// <summary>
    /// What the undecided pairs say: how many say nothing (a line of its own, beside "N of M pairs decided"), and the cells
    /// noisier than their rows.
    /// </summary>
    private string ClaimsLine(IReadOnlyList<RowRanking> rows)
    {
        var pairs = rows.SelectMany(r => r.Ranking.Pairs).ToList();
        var noisy = rows.Sum(r => results.NoisierCells(r.Scenario, r.Transport).Count());
        return $"{pairs.Count(p => p.Claim == Claim.NothingKnown)} of {pairs.Count} pairs: nothing known." +
               (noisy > 0 ? $" {noisy} cell(s) moved more between rounds than their row mates; their pairs are judged on their own variance (\"Cells noisier than their row\")." : "");
    }

    /// <summary>The headline's count of decided pairs, what the undecided ones still claim, named winners, and in a sequential run where the rows settled.</summary>
    private string PairsLine(IReadOnlyList<RowRanking> rows)
    {
        var pairs = rows.SelectMany(r => r.Ranking.Pairs).ToList();
        int Count(PairState state) => pairs.Count(p => p.State == state);
        int Claims(Claim claim) => pairs.Count(p => p.Claim == claim);
        var line = $"{Count(PairState.Faster) + Count(PairState.Level)} of {pairs.Count} pairs decided ({Count(PairState.Faster)} faster, " +
                   $"{Count(PairState.Level)} level; undecided: {Claims(Claim.AheadByUnder)} ahead by under 20 %, {Claims(Claim.Ahead)} ahead by how much unknown, " +
                   $"{Claims(Claim.Within)} within 20 %, {Claims(Claim.NothingKnown)} nothing known); {rows.Count(r => r.Named)} of {rows.Count} rows name a sole winner.";
        if (!results.Design.Sequential)
        {
            return line;
        }

        var design = results.Design;
        var early = rows.Count(r => r.Ranking.Settled && r.Rounds <= design.Minimum);
        var settled = rows.Count(r => r.Ranking.Settled);
        var onTheLine = rows.Count(r => r.OnTheLine(design));
        return $"{line} Rows settled: {settled} of {rows.Count}, {early} after the first {design.Minimum} rounds; " +
               $"{rows.Count - settled} with undecided pairs" + (onTheLine > 0 ? $", {onTheLine} of them stopped with those pairs too close to the 10 % line for more rounds to decide or to give a claim" : "") +
               $" (up to {rows.Where(r => !r.Ranking.Settled).Select(r => r.Rounds).DefaultIfEmpty(0).Max()} rounds).";
    }
}
