using System.Buffers.Binary;
using System.Net.Sockets;
using System.Runtime.InteropServices;

namespace ProtocolBench.LinkDelayer;

/// <summary>
/// Holds every packet of its queues for the link's delay, then accepts it; loses the link's share of them. Each queue is
/// one direction, bound where its packets are received (the sender's TCP counts a packet held before it leaves its host
/// as not yet sent, and slows to a crawl); a direction's packets leave in the order they came (jitter without
/// reordering, as on one wire). One thread does it all: wait until the next packet is due or one arrives, let go what
/// is due, read what came.
/// </summary>
internal sealed unsafe class PacketDelayer : IDisposable
{
    private const int BufferSize = 1 << 20;
    private const int SolSocket = 1;
    private const int SoTimestamp = 29;

    /// <summary>How long the loop waits at most, so a stop is seen.</summary>
    private static readonly long MaxWaitTicks = Stopwatch.Frequency / 10;

    // The library's callback has only a pointer of data, the direction's index; the delayer is the one of this process.
    private static PacketDelayer? _running;
    // A socket that asks for receive timestamps turns them on for every packet the kernel receives (a global switch), so
    // each queued packet says when it came.
    private static readonly Socket Stamping = new(AddressFamily.InterNetwork, SocketType.Dgram, ProtocolType.Udp);

    private readonly PacketFate _fate;
    private readonly List<Direction> _directions = [];

    private PacketDelayer(LinkSettings settings)
    {
        _fate = new PacketFate(settings.DelayMs, settings.JitterMs, settings.LossPercent, settings.Seed);
    }

    public Lateness Lateness { get; } = new();

    public Lateness ReadLate { get; } = new();

    /// <summary>Binds the queues, one a direction; throws <see cref="InvalidOperationException"/> with what failed.</summary>
    public static PacketDelayer Open(LinkSettings settings, IReadOnlyList<QueueAddress> queues)
    {
        Stamping.SetRawSocketOption(SolSocket, SoTimestamp, BitConverter.GetBytes(1));
        var delayer = new PacketDelayer(settings);
        _running = delayer;
        try
        {
            foreach (var address in queues)
            {
                var handle = address.Namespace is { } space ? Native.InNetworkNamespace(space, NetfilterQueue.Open) : NetfilterQueue.Open();
                if (handle == 0)
                {
                    throw new InvalidOperationException($"nfq_open for {address} failed: NFQUEUE needs root or CAP_NET_ADMIN");
                }

                var direction = new Direction(address, handle, settings.QueueLength);
                delayer._directions.Add(direction);
                NetfilterQueue.ReceiveBufferSize(NetfilterQueue.NetlinkHandle(handle), 16 << 20);
                direction.Queue = NetfilterQueue.CreateQueue(handle, address.Number, &OnPacket, delayer._directions.Count - 1);
                if (direction.Queue == 0)
                {
                    throw new InvalidOperationException($"nfq_create_queue for {address} failed: is another program bound to it?");
                }

                Check(NetfilterQueue.SetMode(direction.Queue, NetfilterQueue.CopyMeta, 0), "nfq_set_mode");
                Check(NetfilterQueue.SetQueueLength(direction.Queue, (uint)settings.QueueLength), "nfq_set_queue_maxlen");
                Check(NetfilterQueue.SetQueueFlags(direction.Queue, NetfilterQueue.GsoFlag, NetfilterQueue.GsoFlag), "nfq_set_queue_flags");
            }

            return delayer;
        }
        catch
        {
            delayer.Dispose();
            throw;
        }
    }

    /// <summary>Delays packets until <paramref name="stop"/> is cancelled.</summary>
    public void Run(CancellationToken stop)
    {
        var buffer = (byte*)NativeMemory.Alloc(BufferSize);
        var polls = stackalloc Native.PollDescriptor[_directions.Count];
        for (var i = 0; i < _directions.Count; i++)
        {
            polls[i] = new Native.PollDescriptor { Descriptor = NetfilterQueue.FileDescriptor(_directions[i].Handle), Events = Native.PollIn };
        }

        try
        {
            while (!stop.IsCancellationRequested)
            {
                var now = Stopwatch.GetTimestamp();
                var wait = Math.Clamp(ReleaseDue(now) - now, 0, MaxWaitTicks) * 1_000_000_000 / Stopwatch.Frequency;
                var timeout = new Native.TimeSpec { Seconds = wait / 1_000_000_000, Nanoseconds = wait % 1_000_000_000 };
                if (Native.Poll(polls, (ulong)_directions.Count, &timeout, 0) <= 0)
                {
                    continue;
                }

                for (var i = 0; i < _directions.Count; i++)
                {
                    if ((polls[i].ReturnedEvents & Native.PollIn) != 0)
                    {
                        ReadQueued(_directions[i], polls[i].Descriptor, buffer);
                    }
                }
            }
        }
        finally
        {
            NativeMemory.Free(buffer);
        }
    }

    /// <summary>"queue 0 in pb-1: delayed 1200, lost 0, ...; queue 41: ...; let go late by median 70 µs, ...; read late by ...".</summary>
    public string Describe() =>
        string.Join("; ", _directions.Select(d => $"{d.Address}: delayed {d.Delayed}, lost {d.Lost}, {d.Overflowed} dropped by a full queue, {d.Overruns} socket overruns")) +
        $"; let go late by {Lateness.Describe()}; read late by {ReadLate.Describe()}";

    public void Dispose()
    {
        // Closing a handle unbinds its queue; the kernel drops what it still holds.
        foreach (var direction in _directions)
        {
            NetfilterQueue.Close(direction.Handle);
        }

        _running = null;
    }

    [UnmanagedCallersOnly]
    private static int OnPacket(nint queue, nint message, nint data, nint direction)
    {
        var id = BinaryPrimitives.ReverseEndianness(*NetfilterQueue.PacketHeader(data));
        Native.TimeValue received;
        var age = NetfilterQueue.Timestamp(data, &received) == 0
            ? DateTime.UtcNow.Ticks - DateTime.UnixEpoch.Ticks - (received.Seconds * 10_000_000 + received.Microseconds * 10)
            : 0;
        _running!.Hold(_running._directions[(int)direction], id, age);
        return 0;
    }

    private void Hold(Direction direction, uint id, long ageIn100ns)
    {
        // Timed from when the kernel received the packet, not from when this loop read it.
        var age = Math.Clamp(ageIn100ns, 0, TimeSpan.TicksPerSecond) * Stopwatch.Frequency / TimeSpan.TicksPerSecond;
        ReadLate.Record(age);
        if (_fate.Due(Stopwatch.GetTimestamp() - age, direction.Held.LastDue) is not { } due)
        {
            direction.Let(id, NetfilterQueue.Drop);
            direction.Lost++;
        }
        else if (!direction.Held.TryAdd(id, due))
        {
            // The ring is as long as the kernel's queue, so it is full only when the queue is: dropped, as a full netem drops.
            direction.Let(id, NetfilterQueue.Drop);
            direction.Overflowed++;
        }
    }

    /// <summary>
    /// Lets go every packet due by <paramref name="now"/>, each direction's in one verdict (the kernel numbers a queue's
    /// packets in the order they come, and a direction holds them in that order); returns when the next one is due.
    /// </summary>
    private long ReleaseDue(long now)
    {
        var next = long.MaxValue;
        foreach (var direction in _directions)
        {
            if (direction.Held.NextDue <= now)
            {
                var count = direction.Held.CountDueBy(now);
                var last = direction.Held.IdAt(count - 1);
                var released = Stopwatch.GetTimestamp();
                NetfilterQueue.SetVerdictUpTo(direction.Queue, last, NetfilterQueue.Accept);
                for (var i = 0; i < count; i++)
                {
                    Lateness.Record(released - direction.Held.Take().Due);
                }

                direction.Delayed += count;
            }

            next = Math.Min(next, direction.Held.NextDue);
        }

        return next;
    }

    private void ReadQueued(Direction direction, int descriptor, byte* buffer)
    {
        while (true)
        {
            var read = Native.Receive(descriptor, buffer, BufferSize, Native.DontWait);
            if (read > 0)
            {
                NetfilterQueue.HandlePacket(direction.Handle, buffer, (int)read);
                continue;
            }

            var error = Marshal.GetLastPInvokeError();
            switch (error)
            {
                case Native.Interrupted:
                    continue;
                case Native.NoBuffers:
                    // The socket's buffer overflowed: the kernel dropped those packets (/proc/net/netfilter/nfnetlink_queue counts them).
                    direction.Overruns++;
                    continue;
                case Native.WouldBlock:
                    return;
                default:
                    throw new InvalidOperationException($"recv on {direction.Address}'s socket failed (errno {error})");
            }
        }
    }

    private static void Check(int result, string call)
    {
        if (result < 0)
        {
            throw new InvalidOperationException($"{call} failed");
        }
    }

    /// <summary>One queue: its library handle and queue handle, the packets it holds and what it did.</summary>
    private sealed class Direction(QueueAddress address, nint handle, int capacity)
    {
        public QueueAddress Address { get; } = address;

        public nint Handle { get; } = handle;

        public nint Queue { get; set; }

        public HeldPackets Held { get; } = new(capacity);

        public long Delayed { get; set; }

        public long Lost { get; set; }

        public long Overflowed { get; set; }

        public long Overruns { get; set; }

        public void Let(uint id, uint verdict) => NetfilterQueue.SetVerdict(Queue, id, verdict, 0, 0);
    }
}
