namespace ProtocolBench.Benchmarks.Reporting;

/// <summary>
/// A row's ranking (<see cref="Lab.Statistics.Ranking"/>), how many rounds measured it (where a sequential run settled it), and
/// whether more rounds could decide one of its undecided pairs (<see cref="RoundDesign.CouldDecide"/>).
/// </summary>
public sealed record RowRanking(Scenario Scenario, Transport Transport, Ranking Ranking, int Rounds, bool CouldDecide)
{
    public bool Named => Ranking.Winner is not null;

    /// <summary>Whether <paramref name="design"/> stopped this row with undecided pairs too close to the 10 % line to decide (<see cref="RoundDesign.StopsOnTheLine"/>).</summary>
    public bool OnTheLine(RoundDesign design) => Ranking.Tested && design.StopsOnTheLine(Rounds, Ranking.Settled, CouldDecide);

    public string Says => Ranking.Says;

    public override string ToString() => Ranking.ToString();
}
