namespace ProtocolBench.Benchmarks.Reporting;

/// <summary>
/// A row's ranking (<see cref="Lab.Statistics.Ranking"/>), how many rounds measured it (where a sequential run settled it), and
/// its undecided pairs that more rounds could decide (<see cref="RoundDesign.CouldDecide"/>).
/// </summary>
public sealed record RowRanking(Scenario Scenario, Transport Transport, Ranking Ranking, int Rounds, IReadOnlyList<Verdict> Open)
{
    /// <summary>Whether more rounds could decide one of the row's undecided pairs.</summary>
    public bool CouldDecide => Open.Count > 0;

    public bool Named => Ranking.Winner is not null;

    /// <summary>Whether <paramref name="design"/> stopped this row with undecided pairs too close to the 10 % line to decide (<see cref="RoundDesign.StopsOnTheLine"/>).</summary>
    public bool OnTheLine(RoundDesign design) => Ranking.Tested && design.StopsOnTheLine(Rounds, Ranking.Settled, CouldDecide);

    public string Says => Ranking.Says;

    public override string ToString() => Ranking.ToString();
}
