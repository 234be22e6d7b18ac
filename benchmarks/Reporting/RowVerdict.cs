using ProtocolBench.Lab;
using ProtocolBench.Lab.Scenarios;
using ProtocolBench.Shared.Clients;

namespace ProtocolBench.Benchmarks.Reporting;

/// <summary>A row's verdict: the winner's name, "no clear winner" or no verdict, and the comparison with the closest protocol.</summary>
public sealed record RowVerdict(Scenario Scenario, Transport Transport, string Says, Verdict Closest)
{
    public bool Named => Says != Verdict.NoClearWinner && Says != Verdict.Untested;

    /// <summary>The closest comparison in the verdict rule's words; "no clear winner" also when only a third protocol stops the name.</summary>
    public string Describe() => Says == Verdict.NoClearWinner
        ? $"{Verdict.NoClearWinner} ({Closest.Slower} ÷ {Closest.Faster} {Closest.Margin})"
        : Closest.ToString();
}
