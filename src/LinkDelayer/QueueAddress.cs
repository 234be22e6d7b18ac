namespace ProtocolBench.LinkDelayer;

/// <summary>One direction's queue: its NFQUEUE number and the network namespace its iptables rule is in (null: this process's).</summary>
internal sealed record QueueAddress(ushort Number, string? Namespace)
{
    /// <summary>"0@pb-1234" or "41234".</summary>
    public static QueueAddress Parse(string text) => text.Split('@', 2) is [var number, var space]
        ? new QueueAddress(ushort.Parse(number, CultureInfo.InvariantCulture), space)
        : new QueueAddress(ushort.Parse(text, CultureInfo.InvariantCulture), null);

    public override string ToString() => Namespace is null ? $"queue {Number}" : $"queue {Number} in {Namespace}";
}
