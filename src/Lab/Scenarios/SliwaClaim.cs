namespace ProtocolBench.Lab.Scenarios;

/// <summary>
/// Śliwa &amp; Pańczyk 2021's claim about one author scenario under virtual users, as the load command checks it:
/// one of a best protocol, a throughput REST passes, or REST's throughput as a factor of others'.
/// </summary>
public sealed record SliwaClaim(string Text)
{
    /// <summary>The user count the claim was made at (the verdict says so when ours tops out lower).</summary>
    public int Users { get; init; } = 50;

    /// <summary>The protocol with the best throughput at the most users.</summary>
    public Protocol? Best { get; init; }

    /// <summary>Requests per second REST's best throughput passes.</summary>
    public double? RestPasses { get; init; }

    /// <summary>REST's throughput ÷ each other protocol's, at the most users or, with <see cref="AtEachUserCount"/>, at every count above one.</summary>
    public IReadOnlyList<(Protocol Protocol, double Factor)> RestOver { get; init; } = [];

    public bool AtEachUserCount { get; init; }
}
