using System.Runtime.InteropServices;

namespace ProtocolBench.LinkDelayer;

/// <summary>The libc calls the delayer needs: a non-blocking read, a wait with a nanosecond timeout, another network namespace, real-time priority.</summary>
internal static unsafe partial class Native
{
    public const int DontWait = 0x40;
    public const int WouldBlock = 11;
    public const int Interrupted = 4;
    public const int NoBuffers = 105;
    public const short PollIn = 0x1;
    private const int SchedFifo = 1;

    [StructLayout(LayoutKind.Sequential)]
    public struct PollDescriptor
    {
        public int Descriptor;
        public short Events;
        public short ReturnedEvents;
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct TimeSpec
    {
        public long Seconds;
        public long Nanoseconds;
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct TimeValue
    {
        public long Seconds;
        public long Microseconds;
    }

    [LibraryImport("libc", EntryPoint = "recv", SetLastError = true)]
    public static partial nint Receive(int descriptor, byte* buffer, nint length, int flags);

    [LibraryImport("libc", EntryPoint = "ppoll", SetLastError = true)]
    public static partial int Poll(PollDescriptor* descriptors, ulong count, TimeSpec* timeout, nint signalMask);

    [LibraryImport("libc", EntryPoint = "setns", SetLastError = true)]
    private static partial int SetNamespace(int descriptor, int type);

    /// <summary>
    /// Runs <paramref name="open"/> on a thread of its own inside the network namespace <paramref name="name"/> (ip netns
    /// add NAME): a socket it makes stays in that namespace, whichever thread uses it later. On Linux setns moves only the
    /// calling thread.
    /// </summary>
    public static T InNetworkNamespace<T>(string name, Func<T> open)
    {
        const int NewNetwork = 0x40000000; // CLONE_NEWNET
        T? made = default;
        Exception? failed = null;
        var thread = new Thread(() =>
        {
            try
            {
                using var space = File.OpenHandle(Path.Combine("/run/netns", name));
                if (SetNamespace((int)space.DangerousGetHandle(), NewNetwork) != 0)
                {
                    throw new InvalidOperationException($"setns into network namespace {name} failed (errno {Marshal.GetLastPInvokeError()})");
                }

                made = open();
            }
            catch (Exception e)
            {
                failed = e;
            }
        });
        thread.Start();
        thread.Join();
        return failed is null ? made! : throw failed;
    }

    [LibraryImport("libc", EntryPoint = "sched_setscheduler", SetLastError = true)]
    private static partial int SetScheduler(int thread, int policy, int* priority);

    /// <summary>
    /// Puts the calling thread (on Linux, pid 0 is the thread) in SCHED_FIFO at <paramref name="priority"/>: a packet's
    /// release then waits for no busy service or client. Returns why not (not root), or null.
    /// </summary>
    public static string? RunInRealTime(int priority)
    {
        var setting = priority;
        return SetScheduler(0, SchedFifo, &setting) == 0 ? null : $"SCHED_FIFO refused (errno {Marshal.GetLastPInvokeError()})";
    }
}
