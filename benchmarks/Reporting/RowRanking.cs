using ProtocolBench.Lab;
using ProtocolBench.Lab.Scenarios;
using ProtocolBench.Shared.Clients;

namespace ProtocolBench.Benchmarks.Reporting;

/// <summary>A row's ranking (<see cref="Lab.Ranking"/>) and how many rounds measured it: where a sequential run settled it.</summary>
public sealed record RowRanking(Scenario Scenario, Transport Transport, Ranking Ranking, int Rounds)
{
    public bool Named => Ranking.Winner is not null;

    public string Says => Ranking.Says;

    public override string ToString() => Ranking.ToString();
}
