using System.CommandLine;
using System.Runtime.InteropServices;
using ProtocolBench.LinkDelayer;

// Started by the harness for a link with a delay on a kernel without netem (--network); it binds the queues, prints "ready", delays packets
// until its standard input closes (the harness's lifeline), then prints what it did; "report" on its input asks for it
// before.
var delay = new Option<double>("--delay-ms") { Description = "How long each packet is held, each way, in ms", Required = true };
var jitter = new Option<double>("--jitter-ms") { Description = "Each packet's hold varies uniformly by up to this, in ms (no reordering)" };
var loss = new Option<double>("--loss-percent") { Description = "The share of packets dropped, in %" };
var queues = new Option<string[]>("--queue")
{
    Description = "A direction's NFQUEUE number, with @NAMESPACE where its rule is in that network namespace (0@pb-1234)",
    Required = true,
    AllowMultipleArgumentsPerToken = true,
};
var length = new Option<int>("--queue-length") { Description = "Packets each queue holds at most", DefaultValueFactory = _ => 10_000 };
var seed = new Option<int>("--seed") { Description = "Seeds the jitter and the loss", DefaultValueFactory = _ => 1 };
var command = new RootCommand("Delays, jitters and drops the packets iptables queues to NFQUEUE: a link's delay where the kernel has no netem.")
{
    delay, jitter, loss, queues, length, seed,
};
command.SetAction(parsed =>
{
    if (!NetfilterQueue.IsInstalled())
    {
        Console.Error.WriteLine($"{NetfilterQueue.Library} is missing: apt-get install libnetfilter-queue1");
        return 2;
    }

    // Ctrl+C reaches the whole process group; the harness stops this process itself, after the last packet it measures.
    using var interrupt = PosixSignalRegistration.Create(PosixSignal.SIGINT, context => context.Cancel = true);
    var settings = new LinkSettings(parsed.GetValue(delay), parsed.GetValue(jitter), parsed.GetValue(loss), parsed.GetValue(length), parsed.GetValue(seed));
    using var stop = new CancellationTokenSource();
    using var delayer = PacketDelayer.Open(settings, [.. parsed.GetValue(queues)!.Select(QueueAddress.Parse)]);
    var priority = Native.RunInRealTime(priority: 10);

    void WatchLifeline()
    {
        // "report" asks what was done so far (a snapshot, read while packets move); the end of input is the stop.
        while (Console.In.ReadLine() is { } line)
        {
            if (line == "report")
            {
                Console.WriteLine($"so far: {delayer.Describe()}");
            }
        }

        stop.Cancel();
    }

    new Thread(WatchLifeline) { IsBackground = true, Name = "lifeline" }.Start();
    Console.WriteLine($"ready (pid {Environment.ProcessId}): {settings}, {priority ?? "SCHED_FIFO"}");
    delayer.Run(stop.Token);
    Console.WriteLine($"done: {delayer.Describe()}");
    return 0;
});
return command.Parse(args).Invoke();
