namespace ProtocolBench.Shared.Hosting.Budget;

/// <summary>
/// The response budget's numbers (<see cref="ResponseBudget"/> says why each is so): what is large enough to reserve,
/// and how a reader that holds an answer while others wait is judged.
/// </summary>
public static class BudgetRules
{
    /// <summary>An answer that can be smaller reserves nothing: the budget is for large answers.</summary>
    public const int ThresholdBytes = 64 * 1024;

    /// <summary>How long a connection's socket may send nothing, its answer started, before the answer is taken back.</summary>
    public static readonly TimeSpan StallAfter = TimeSpan.FromMilliseconds(500);

    /// <summary>
    /// Over how long a connection's rate is judged against <see cref="MinBytesPerSecond"/> for each answer it holds, and how
    /// long one write of an answer may wait for its reader at least (or the time its bytes take at that rate, if longer).
    /// </summary>
    public static readonly TimeSpan SlowAfter = TimeSpan.FromSeconds(2);

    /// <summary>
    /// The slowest reader of one answer that keeps its reservation while others wait: 32 KiB/s, so that a client reading
    /// steadily at 64 KiB/s or more is never aborted on any protocol; Kestrel's own minimum, 240 B/s, ends only a whole
    /// connection. A connection that holds several answers (HTTP/2 streams) must send that much for each. An answer is
    /// flushed whole (System.Text.Json flushes between values, not inside one; gRPC writes a unary answer as one message),
    /// so a stream nobody reads on a connection that sends for others is seen after its answer's time at this rate: 145 s
    /// for the PDF as JSON, 109 s as protobuf.
    /// </summary>
    public const long MinBytesPerSecond = 32 * 1024;

    /// <summary>How long a waiter may wait before it goes ahead of newer ones.</summary>
    public static readonly TimeSpan AgeLimit = TimeSpan.FromSeconds(5);
}
