namespace ProtocolBench.Lab.Statistics;

/// <summary>
/// What a run knows about two sides of a row, from the interval of slower ÷ faster (<see cref="Verdict"/>): one is
/// faster (the whole interval beyond 1 + 10 %), the two are level (the whole interval within 10 % either way:
/// equivalent within the line), or the data do not tell yet. Without an interval (one round) they are untested.
/// </summary>
public enum PairState
{
    Untested,
    Undecided,
    Level,
    Faster,
}
