namespace ProtocolBench.LinkDelayer;

/// <summary>
/// The packets one direction holds, in the order they came, each with the time it is due: a ring of fixed size (the
/// kernel's queue length, which no more packets can exceed), so holding a packet allocates nothing.
/// </summary>
internal sealed class HeldPackets(int capacity)
{
    private readonly uint[] _ids = new uint[capacity];
    private readonly long[] _due = new long[capacity];
    private int _head;

    public int Count { get; private set; }

    /// <summary>When the last packet held is due: a later packet is never due before it (no reordering).</summary>
    public long LastDue { get; private set; } = long.MinValue;

    /// <summary>When the first packet held is due; long.MaxValue when none is held.</summary>
    public long NextDue => Count == 0 ? long.MaxValue : _due[_head];

    /// <summary>How many packets from the first are due by <paramref name="time"/> (they are held in the order they are due).</summary>
    public int CountDueBy(long time)
    {
        var count = 0;
        while (count < Count && _due[(_head + count) % _due.Length] <= time)
        {
            count++;
        }

        return count;
    }

    /// <summary>The id of the packet <paramref name="index"/> places behind the first.</summary>
    public uint IdAt(int index) => _ids[(_head + index) % _ids.Length];

    public bool TryAdd(uint id, long due)
    {
        if (Count == _ids.Length)
        {
            return false;
        }

        var tail = (_head + Count) % _ids.Length;
        _ids[tail] = id;
        _due[tail] = due;
        Count++;
        LastDue = due;
        return true;
    }

    /// <summary>Takes the first packet held: its id and when it was due.</summary>
    public (uint Id, long Due) Take()
    {
        var taken = (_ids[_head], _due[_head]);
        _head = (_head + 1) % _ids.Length;
        Count--;
        return taken;
    }
}
