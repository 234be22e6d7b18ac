namespace ProtocolBench.Lab.Costs;

/// <summary>
/// The kernel's account of a process's CPU time: utime + stime in /proc/PID/stat (proc(5)), all its threads, the ended
/// ones too. Read by hand: no served library reads another process's stat file, and it is two numbers on one line.
/// </summary>
public static class KernelCpu
{
    /// <summary>The unit of utime and stime: USER_HZ, 100 per second on every architecture Linux runs on (proc(5), times(2)).</summary>
    public const double TicksPerSecond = 100;

    /// <summary>User + system seconds of the process so far, to 10 ms; null where there is no /proc (not Linux) or the process is gone.</summary>
    public static double? Seconds(int processId)
    {
        string stat;
        try
        {
            stat = File.ReadAllText($"/proc/{processId}/stat");
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }

        // The command name (field 2) is in parentheses and may hold spaces: count the fields after its closing one.
        // Field 3 (state) comes first there, so utime (field 14) and stime (field 15) are the 12th and 13th.
        var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
        return fields.Length > 12
            ? (long.Parse(fields[11], CultureInfo.InvariantCulture) + long.Parse(fields[12], CultureInfo.InvariantCulture)) / TicksPerSecond
            : null;
    }
}
