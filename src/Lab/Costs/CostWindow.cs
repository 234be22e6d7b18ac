namespace ProtocolBench.Lab.Costs;

/// <summary>
/// A stretch of requests whose cost is read: opened and closed with the service idle (<see cref="ServiceMeter.PauseAsync"/>),
/// the client's CPU time counted in between. Without a meter (--external, diagnostics unreachable) it reads nothing.
/// </summary>
public sealed class CostWindow
{
    private readonly ServiceMeter? _meter;
    private readonly MeterMark? _start;
    private readonly TimeSpan _clientStart;

    private CostWindow(ServiceMeter? meter, MeterMark? start)
    {
        _meter = meter;
        _start = start;
        _clientStart = Environment.CpuUsage.TotalTime;
    }

    public static async Task<CostWindow> OpenAsync(ServiceMeter? meter) =>
        new(meter, meter is null ? null : await meter.PauseAsync(CancellationToken.None));

    /// <summary>
    /// The cost of each of <paramref name="operations"/> sent since the window opened; null when it could not be read. The
    /// client's CPU time is this process's, or <paramref name="clientCpu"/> where other processes sent them (Locust's).
    /// </summary>
    public async Task<CostPerOp?> CloseAsync(long operations, TimeSpan? clientCpu = null)
    {
        var clientSeconds = (clientCpu ?? Environment.CpuUsage.TotalTime - _clientStart).TotalSeconds;
        if (_meter is null || _start is null || operations == 0)
        {
            return null;
        }

        var end = await _meter.PauseAsync(CancellationToken.None);
        return await Task.Run(() => _meter.CostBetween(_start, end, operations, clientSeconds));
    }
}
