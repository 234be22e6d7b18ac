namespace ProtocolBench.LoadTests.Studies;

/// <summary>
/// The resident memory (VmRSS) of the service that served a cell: at the cell's start, before its users connect, and the
/// most it held while they were connected; per connection, the growth ÷ the connections the cell opened. The growth is the
/// process's, garbage the runtime has not yet collected included, so it bounds what a connection costs from above.
/// </summary>
public sealed record ServiceMemory(double StartMiB, double PeakMiB, int Connections)
{
    /// <summary>The growth over the cell's start per connection, in KiB; null without connections.</summary>
    public double? KiBPerConnection => Connections > 0 ? Math.Max(0, PeakMiB - StartMiB) * 1024 / Connections : null;

    /// <summary>
    /// Reads the process's resident memory now and four times a second until <see cref="Sampler.StopAsync"/>; null where it
    /// cannot be read (not Linux, no process: --external services).
    /// </summary>
    public static Sampler? Sample(int? processId) =>
        OperatingSystem.IsLinux() && processId is { } pid && ReadMiB(pid) is { } start ? new Sampler(pid, start) : null;

    /// <summary>The process's VmRSS in MiB (/proc/PID/status), or null when it has ended.</summary>
    private static double? ReadMiB(int processId)
    {
        try
        {
            // "VmRSS:     123456 kB"
            var line = File.ReadLines($"/proc/{processId}/status").FirstOrDefault(l => l.StartsWith("VmRSS:", StringComparison.Ordinal));
            return line is null ? null : long.Parse(line.Split(' ', StringSplitOptions.RemoveEmptyEntries)[1], CultureInfo.InvariantCulture) / 1024.0;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>A cell's samples of one service's memory, taken on the thread pool until stopped.</summary>
    public sealed class Sampler
    {
        private readonly int _processId;
        private readonly double _start;
        private readonly CancellationTokenSource _stop = new();
        private readonly Task<double> _peak;

        internal Sampler(int processId, double start)
        {
            _processId = processId;
            _start = start;
            _peak = Task.Run(PeakAsync);
        }

        /// <summary>Stops sampling: the memory at the start and the most since, for <paramref name="connections"/>.</summary>
        public async Task<ServiceMemory> StopAsync(int connections)
        {
            await _stop.CancelAsync();
            var peak = await _peak;
            _stop.Dispose();
            return new ServiceMemory(_start, peak, connections);
        }

        private async Task<double> PeakAsync()
        {
            var peak = _start;
            using var timer = new PeriodicTimer(TimeSpan.FromMilliseconds(250));
            try
            {
                while (await timer.WaitForNextTickAsync(_stop.Token))
                {
                    peak = Math.Max(peak, ReadMiB(_processId) ?? peak);
                }
            }
            catch (OperationCanceledException)
            {
            }

            return Math.Max(peak, ReadMiB(_processId) ?? peak);
        }
    }
}
