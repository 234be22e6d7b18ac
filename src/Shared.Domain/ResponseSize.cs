namespace ProtocolBench.Shared.Domain;

/// <summary>
/// The most an operation's answer can carry, in bytes of payload before any protocol encodes it, known from its arguments
/// alone, before it runs. Every service reserves this from its response budget with the same numbers, so every protocol
/// gets the same concurrency for the same operation.
/// </summary>
public static class ResponseSize
{
    /// <summary>A seeded author with three books is about 120 bytes of payload.</summary>
    public const int AuthorBytes = 128;

    /// <summary>An int of 0..100,000 and its separator.</summary>
    public const int IntBytes = 7;

    public static long Clone(int? textLength, int? count) =>
        Math.Min((long)Math.Clamp(textLength ?? 0, 0, Limits.CloneTextMaxLength) * Math.Clamp(count ?? 0, 0, Limits.CloneCountMax), Limits.CloneOutputMaxChars);

    public static long Ints(int? count) => (long)Math.Clamp(count ?? 0, 0, Limits.IntsCountMax) * IntBytes;

    public static long Search(int? limit) => (long)Math.Clamp(limit ?? Limits.SearchLimitMax, 0, Limits.SearchLimitMax) * AuthorBytes;

    public static long List(int? take) => (long)Math.Clamp(take ?? Limits.ListTakeDefault, 0, Limits.ListTakeMax) * AuthorBytes;
}
