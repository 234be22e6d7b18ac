namespace ProtocolBench.Benchmarks.Reporting;

/// <summary>
/// A row's ranking (<see cref="Lab.Statistics.Ranking"/>), how many rounds measured it (where a sequential run settled it), and
/// its undecided pairs of which more rounds could tell more (<see cref="RoundDesign.CouldTellMore"/>): decide them, or give a claim to one of which nothing is known.
/// </summary>
public sealed record RowRanking(Scenario Scenario, Transport Transport, Ranking Ranking, int Rounds, IReadOnlyList<Verdict> Open)
{
    /// <summary>Whether more rounds could tell more of one of the row's undecided pairs.</summary>
    public bool CouldTellMore => Open.Count > 0;

    public bool Named => Ranking.Winner is not null;

    /// <summary>Whether <paramref name="design"/> stopped this row with undecided pairs too close to the 10 % line for more rounds to tell more (<see cref="RoundDesign.StopsOnTheLine"/>).</summary>
    public bool OnTheLine(RoundDesign design) => Ranking.Tested && design.StopsOnTheLine(Rounds, Ranking.Settled, CouldTellMore);

    public string Says => Ranking.Says;

    public override string ToString() => Ranking.ToString();
}
