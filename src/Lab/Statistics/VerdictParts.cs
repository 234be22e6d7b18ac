namespace ProtocolBench.Lab.Statistics;

/// <summary>
/// What decides a verdict, estimated from one run: each side's time is taken as processing (client, server and their
/// serialization, the same under every condition) + its bytes crossing the link at the link's rate + on new
/// connections, opening one. Measured once under the run's conditions, the parts give each side's time under
/// others, and so where the winner flips. An estimate: a link's delay, TCP's slow start and contention are not in it;
/// <c>compare</c> over runs under those conditions measures what this predicts.
/// </summary>
/// <param name="A">The side the ratios divide by.</param>
/// <param name="B">The other side.</param>
/// <param name="BitsPerSecond">The run's link rate each way; null on loopback (transfer taken as free).</param>
/// <param name="NewConnections">Whether the run opened a connection for every request.</param>
public sealed record VerdictParts(Side A, Side B, long? BitsPerSecond, bool NewConnections)
{
    /// <summary>The link the paper measured on (Bolanowski et al.: two machines on a ~100 Mbit/s LAN).</summary>
    public const long PaperLan = 100_000_000;

    /// <summary>A side's time on a link of <paramref name="bitsPerSecond"/> (null: loopback), with or without a new connection per request.</summary>
    public double TimeOf(Side side, long? bitsPerSecond, bool newConnections) =>
        Processing(side) + Transfer(side.Bytes, bitsPerSecond) + (newConnections ? Opening(side, bitsPerSecond) : 0);

    /// <summary>
    /// The least share of a side's measured time an estimate may keep when it takes parts away (the bytes' time on the
    /// link, the opening): a rest smaller than this is within what the model leaves out (sending overlaps serializing,
    /// htb lets a burst through at line rate), so the condition has to be measured instead.
    /// </summary>
    public const double MinimumKept = 0.25;

    /// <summary>
    /// B's time ÷ A's under other conditions; null when opening a connection was not measured and would be needed, or
    /// when the estimate would keep less than <see cref="MinimumKept"/> of a side's time.
    /// </summary>
    public double? RatioUnder(long? bitsPerSecond, bool newConnections) =>
        HasPartsFor(newConnections) && Keeps(A, bitsPerSecond, newConnections) && Keeps(B, bitsPerSecond, newConnections)
            ? TimeOf(B, bitsPerSecond, newConnections) / TimeOf(A, bitsPerSecond, newConnections)
            : null;

    /// <summary>The side that moves fewer bytes per operation under the run's connection policy.</summary>
    public Side Lighter => Moved(B) < Moved(A) ? B : A;

    /// <summary>
    /// The link rate at which both sides take the same time under the run's connection policy: below it the side
    /// that moves fewer bytes is faster, above it the other. Null when one side is faster at every rate.
    /// </summary>
    public long? EqualAt()
    {
        var bytes = Moved(B) - Moved(A);
        var rest = TimeOf(B, null, NewConnections) - TimeOf(A, null, NewConnections);
        if (!HasPartsFor(NewConnections) || bytes == 0 || rest == 0 || Math.Sign(bytes) == Math.Sign(rest))
        {
            return null;
        }

        // rest + bytes × 8 ÷ rate × 1e9 = 0
        return (long)(-bytes * 8 * 1e9 / rest);
    }

    /// <summary>
    /// The cost added to every request of both sides alike (a link's round trips, a load tool's own time, a TLS
    /// handshake both pay) above which the slower side is less than <see cref="Verdict.PracticalDifference"/> slower,
    /// so that no winner can be named; zero when it already is.
    /// </summary>
    public double HiddenBy()
    {
        var (fast, slow) = A.Time <= B.Time ? (A.Time, B.Time) : (B.Time, A.Time);
        return Math.Max(0, (slow - (1 + Verdict.PracticalDifference) * fast) / Verdict.PracticalDifference);
    }

    /// <summary>The run's gap (B − A) split into processing, bytes on the link and opening connections.</summary>
    public (double Processing, double Transfer, double Opening) Gap() => (
        Processing(B) - Processing(A),
        Transfer(B.Bytes, BitsPerSecond) - Transfer(A.Bytes, BitsPerSecond),
        NewConnections ? Opening(B, BitsPerSecond) - Opening(A, BitsPerSecond) : 0);

    private bool Keeps(Side side, long? bitsPerSecond, bool newConnections)
    {
        var removed = (bitsPerSecond != BitsPerSecond ? Transfer(side.Bytes, BitsPerSecond) : 0) +
                      (NewConnections && !newConnections ? side.SetUp ?? 0 : 0);
        return side.Time - removed >= MinimumKept * side.Time;
    }

    private double Moved(Side side) => side.Bytes + (NewConnections ? side.SetUpBytes : 0);

    /// <summary>Whether the opening's cost was measured where an estimate with or from new connections needs it.</summary>
    public bool HasPartsFor(bool newConnections) => !(newConnections || NewConnections) || (A.SetUp is not null && B.SetUp is not null);

    private double Processing(Side side) =>
        side.Time - Transfer(side.Bytes, BitsPerSecond) - (NewConnections ? Opening(side, BitsPerSecond) : 0);

    /// <summary>Opening a connection on another link: its measured time with its bytes moved at that link's rate instead.</summary>
    private double Opening(Side side, long? bitsPerSecond) =>
        (side.SetUp ?? 0) - Transfer(side.SetUpBytes, BitsPerSecond) + Transfer(side.SetUpBytes, bitsPerSecond);

    private static double Transfer(double bytes, long? bitsPerSecond) => bitsPerSecond is { } rate ? bytes * 8 * 1e9 / rate : 0;
}
