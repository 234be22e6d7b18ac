namespace ProtocolBench.Integration.Tests.Infrastructure;

public static class Processes
{
    /// <summary>Whether a process with this id is alive (a service a test expects to be gone).</summary>
    public static bool IsRunning(int pid)
    {
        try
        {
            using var process = Process.GetProcessById(pid);
            return !process.HasExited;
        }
        catch (ArgumentException)
        {
            return false;
        }
    }

    /// <summary>Runs a program to its end (a minute at most) and returns what it printed; throws with its errors when it fails.</summary>
    public static async Task<string> RunAsync(string program, params string[] args)
    {
        var info = new ProcessStartInfo(program) { RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (var arg in args)
        {
            info.ArgumentList.Add(arg);
        }

        using var process = Process.Start(info)!;
        var error = process.StandardError.ReadToEndAsync();
        var output = process.StandardOutput.ReadToEndAsync();
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(1));
        await process.WaitForExitAsync(timeout.Token);
        if (process.ExitCode != 0)
        {
            throw new InvalidOperationException($"{program} {string.Join(' ', args)}: exit {process.ExitCode}: {await error}");
        }

        return await output;
    }
}
