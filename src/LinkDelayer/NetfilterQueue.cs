using System.Runtime.InteropServices;

namespace ProtocolBench.LinkDelayer;

/// <summary>
/// The parts of libnetfilter_queue (Debian's libnetfilter-queue1) this program uses: bind a queue, read its packets'
/// ids, give each its verdict. Only the packets' metadata is copied to userspace; nothing of a packet is changed.
/// </summary>
internal static unsafe partial class NetfilterQueue
{
    public const string Library = "libnetfilter_queue.so.1";

    public const uint Drop = 0;
    public const uint Accept = 1;

    /// <summary>NFQNL_COPY_META: the packet's metadata, none of its bytes.</summary>
    public const byte CopyMeta = 1;

    /// <summary>NFQA_CFG_F_GSO: a segmentation-offload packet is queued whole, not cut into its segments first.</summary>
    public const uint GsoFlag = 1 << 2;

    [LibraryImport(Library, EntryPoint = "nfq_open")]
    public static partial nint Open();

    [LibraryImport(Library, EntryPoint = "nfq_close")]
    public static partial int Close(nint handle);

    [LibraryImport(Library, EntryPoint = "nfq_fd")]
    public static partial int FileDescriptor(nint handle);

    [LibraryImport(Library, EntryPoint = "nfq_nfnlh")]
    public static partial nint NetlinkHandle(nint handle);

    [LibraryImport(Library, EntryPoint = "nfq_create_queue")]
    public static partial nint CreateQueue(nint handle, ushort number, delegate* unmanaged<nint, nint, nint, nint, int> callback, nint data);

    [LibraryImport(Library, EntryPoint = "nfq_set_mode")]
    public static partial int SetMode(nint queue, byte mode, uint range);

    [LibraryImport(Library, EntryPoint = "nfq_set_queue_maxlen")]
    public static partial int SetQueueLength(nint queue, uint length);

    [LibraryImport(Library, EntryPoint = "nfq_set_queue_flags")]
    public static partial int SetQueueFlags(nint queue, uint mask, uint flags);

    [LibraryImport(Library, EntryPoint = "nfq_handle_packet")]
    public static partial int HandlePacket(nint handle, byte* buffer, int length);

    /// <summary>The packet's header: its id (big-endian), hardware protocol and hook.</summary>
    [LibraryImport(Library, EntryPoint = "nfq_get_msg_packet_hdr")]
    public static partial uint* PacketHeader(nint data);

    /// <summary>When the kernel received the packet (wall clock, µs), where it stamped it: 0 when it did.</summary>
    [LibraryImport(Library, EntryPoint = "nfq_get_timestamp")]
    public static partial int Timestamp(nint data, Native.TimeValue* time);

    [LibraryImport(Library, EntryPoint = "nfq_set_verdict")]
    public static partial int SetVerdict(nint queue, uint id, uint verdict, uint length, nint buffer);

    /// <summary>One verdict for every packet of the queue up to and including <paramref name="id"/> (ids rise in the order packets come).</summary>
    [LibraryImport(Library, EntryPoint = "nfq_set_verdict_batch")]
    public static partial int SetVerdictUpTo(nint queue, uint id, uint verdict);

    /// <summary>From libnfnetlink, libnetfilter_queue's own dependency: the netlink socket's receive buffer.</summary>
    [LibraryImport("libnfnetlink.so.0", EntryPoint = "nfnl_rcvbufsiz")]
    public static partial uint ReceiveBufferSize(nint netlinkHandle, uint size);

    /// <summary>Whether the library can be loaded here.</summary>
    public static bool IsInstalled() => NativeLibrary.TryLoad(Library, out _);
}
