using System.Diagnostics.Tracing;
using Microsoft.Diagnostics.NETCore.Client;
using Microsoft.Diagnostics.Tracing;

namespace ProtocolBench.Lab.Costs;

/// <summary>
/// A service's own account of what it spends: its runtime's System.Runtime meter (dotnet.process.cpu.time by user and
/// system, dotnet.gc.heap.total_allocated), read over EventPipe as dotnet-counters reads it, every 100 ms. The runtime
/// takes each collection on a thread of its own at fixed instants (multiples of the interval), so nothing runs on the
/// service's request path.
/// <para>
/// To read the account at an instant, the caller pauses there (<see cref="Pause"/>): the service stays idle until the
/// next collection has been taken, so that collection holds exactly what was spent up to the instant. The kernel's
/// account (/proc/PID/stat) is read at the same instant, as the check.
/// </para>
/// </summary>
public sealed partial class ServiceMeter : IDisposable
{
    /// <summary>The runtime's shortest collection interval (System.Diagnostics.Metrics' AggregationManager.MinCollectionTimeSecs).</summary>
    public static readonly TimeSpan Interval = TimeSpan.FromMilliseconds(100);

    /// <summary>The collection thread wakes a moment after its due time; a pause lasts this much longer.</summary>
    private static readonly TimeSpan Margin = TimeSpan.FromMilliseconds(15);

    /// <summary>The longest a reading waits for its collection to arrive (they arrive about 110 ms after they are taken).</summary>
    private static readonly TimeSpan ArrivalTimeout = TimeSpan.FromSeconds(5);

    /// <summary>Two minutes of collections: a reading is taken within seconds of its mark.</summary>
    private const int Kept = 1200;

    private const string CpuTime = "dotnet.process.cpu.time";
    private const string Allocated = "dotnet.gc.heap.total_allocated";

    private readonly object _gate = new();
    private readonly List<Collection> _collections = [];
    private readonly EventPipeSession _session;
    private readonly EventPipeEventSource _source;
    private readonly string _sessionId;
    private readonly Task _reader;
    private Pending? _open;
    private string? _ended;
    private int _disposed;

    private ServiceMeter(int processId, EventPipeSession session, string sessionId)
    {
        ProcessId = processId;
        _session = session;
        _sessionId = sessionId;
        _source = new EventPipeEventSource(session.EventStream);
        _source.Dynamic.All += OnEvent;
        _reader = Task.Factory.StartNew(Process, CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);
    }

    public int ProcessId { get; }

    /// <summary>Starts reading the meter of the .NET process <paramref name="processId"/> (its diagnostics socket must be reachable).</summary>
    public static ServiceMeter Attach(int processId)
    {
        var sessionId = $"protocolbench-{Environment.ProcessId}-{processId}";
        var provider = new EventPipeProvider(
            "System.Diagnostics.Metrics",
            EventLevel.Informational,
            keywords: 0x2, // TimeSeriesValues
            arguments: new Dictionary<string, string>
            {
                ["SessionId"] = sessionId,
                ["Metrics"] = $"System.Runtime\\{CpuTime};System.Runtime\\{Allocated}",
                ["RefreshInterval"] = Interval.TotalSeconds.ToString(CultureInfo.InvariantCulture),
                ["MaxTimeSeries"] = "100",
                ["MaxHistograms"] = "10",
            });
        var session = new DiagnosticsClient(processId).StartEventPipeSession([provider], requestRundown: false);
        return new ServiceMeter(processId, session, sessionId);
    }

    /// <summary><see cref="Attach"/>, or null with the reason when the process's diagnostics cannot be reached (DOTNET_EnableDiagnostics=0, gone, another user's).</summary>
    public static ServiceMeter? TryAttach(int processId, out string? problem)
    {
        try
        {
            problem = null;
            return Attach(processId);
        }
        catch (Exception e) when (e is DiagnosticsClientException or IOException or TimeoutException or UnauthorizedAccessException or System.Net.Sockets.SocketException)
        {
            problem = e.Message;
            return null;
        }
    }

    /// <summary>
    /// Marks this instant and returns once the service's next collection is due and taken, keeping it idle till then (the
    /// caller sends nothing meanwhile): about 65 ms on average. The kernel's account is read as the pause ends, just
    /// after that collection, so that both accounts cover the same window but for the 15 ms margin.
    /// </summary>
    public MeterMark Pause()
    {
        var at = DateTime.UtcNow;
        var rest = Rest(NextCollection(at));
        if (rest > TimeSpan.Zero)
        {
            Thread.Sleep(rest);
        }

        return Resumed(at);
    }

    /// <inheritdoc cref="Pause"/>
    public async Task<MeterMark> PauseAsync(CancellationToken cancellationToken)
    {
        var at = DateTime.UtcNow;
        var rest = Rest(await Task.Run(() => NextCollection(at), cancellationToken));
        if (rest > TimeSpan.Zero)
        {
            await Task.Delay(rest, cancellationToken);
        }

        return Resumed(at);
    }

    /// <summary>How long to stay idle for the collection due at <paramref name="due"/> to have been taken.</summary>
    private static TimeSpan Rest(DateTime due) => due + Margin - DateTime.UtcNow;

    /// <summary>The mark of a pause that began at <paramref name="at"/> and ends now, with the kernel's account read now.</summary>
    private MeterMark Resumed(DateTime at) => new(at, KernelCpu.Seconds(ProcessId), DateTime.UtcNow);

    /// <summary>Whether the collection that gives the account at a marked instant has arrived, so that <see cref="Read"/> will not wait.</summary>
    public bool Arrived(MeterMark mark)
    {
        lock (_gate)
        {
            return _collections.Any(c => c.Due >= mark.At);
        }
    }

    /// <summary>The account at a marked instant: the first collection due at or after it, once it has arrived.</summary>
    /// <exception cref="TimeoutException">No such collection arrived: the service or its diagnostics ended.</exception>
    public ServerReading Read(MeterMark mark)
    {
        var deadline = DateTime.UtcNow + ArrivalTimeout;
        lock (_gate)
        {
            while (true)
            {
                if (_collections.FirstOrDefault(c => c.Due >= mark.At) is { } c)
                {
                    return new ServerReading(c.User, c.System, c.Allocated, mark.KernelSeconds, Precise: c.Taken <= mark.Resumed);
                }

                var left = deadline - DateTime.UtcNow;
                if (_ended is not null || left <= TimeSpan.Zero)
                {
                    throw new TimeoutException($"The service (pid {ProcessId}) sent no collection of its meter after {mark.At:HH:mm:ss.fff}: {_ended ?? "none arrived in 5 s"}.");
                }

                Monitor.Wait(_gate, left);
            }
        }
    }

    /// <summary>
    /// What each of <paramref name="operations"/> cost between two marks (<see cref="CostPerOp.Between"/>); null when a
    /// collection did not arrive or was taken late, after the next requests began.
    /// </summary>
    public CostPerOp? CostBetween(MeterMark start, MeterMark end, long operations, double clientCpuSeconds = double.NaN)
    {
        try
        {
            var cost = CostPerOp.Between(Read(start), Read(end), operations, clientCpuSeconds);
            return cost.Precise ? cost : null;
        }
        catch (TimeoutException)
        {
            return null;
        }
    }

    public void Dispose()
    {
        if (Interlocked.Exchange(ref _disposed, 1) == 1)
        {
            return;
        }

        try
        {
            _session.Stop();
        }
        catch (Exception e) when (e is DiagnosticsClientException or EndOfStreamException or IOException or TimeoutException or System.Net.Sockets.SocketException)
        {
            // The service has already gone: its stream ended with it.
        }

        _reader.Wait(TimeSpan.FromSeconds(5));
        _session.Dispose();
        _source.Dispose();
    }

    /// <summary>When the first collection at or after <paramref name="at"/> is due: on the grid of those seen (waits for the first one).</summary>
    private DateTime NextCollection(DateTime at)
    {
        var deadline = DateTime.UtcNow + ArrivalTimeout;
        lock (_gate)
        {
            while (_collections.Count == 0)
            {
                var left = deadline - DateTime.UtcNow;
                if (_ended is not null || left <= TimeSpan.Zero)
                {
                    throw new TimeoutException($"The service (pid {ProcessId}) sent no collection of its meter: {_ended ?? "none arrived in 5 s"}.");
                }

                Monitor.Wait(_gate, left);
            }

            var last = _collections[^1].Due;
            return last >= at ? last : last + Interval * Math.Ceiling((at - last) / Interval);
        }
    }
}
