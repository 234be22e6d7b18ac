namespace ProtocolBench.Lab.Network;

/// <summary>The commands that make a shaped link (iproute2's ip and tc, iptables), each with a time limit.</summary>
internal static class NetworkCommand
{
    private static readonly TimeSpan CommandTimeout = TimeSpan.FromSeconds(20);

    /// <summary>Runs a command of iproute2 or iptables; its standard output, or <see cref="NetworkCommandException"/> with what it said.</summary>
    public static async Task<string> RunAsync(string[] command, CancellationToken cancellationToken)
    {
        var info = new ProcessStartInfo(command[0]) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (var argument in command.Skip(1))
        {
            info.ArgumentList.Add(argument);
        }

        Process process;
        try
        {
            process = Process.Start(info)!;
        }
        catch (System.ComponentModel.Win32Exception e)
        {
            throw new NetworkCommandException($"{command[0]}: {e.Message}");
        }

        using (process)
        using (var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken))
        {
            timeout.CancelAfter(CommandTimeout);
            var output = process.StandardOutput.ReadToEndAsync(timeout.Token);
            var error = process.StandardError.ReadToEndAsync(timeout.Token);
            try
            {
                await process.WaitForExitAsync(timeout.Token);
            }
            catch (OperationCanceledException)
            {
                process.Kill();
                throw new NetworkCommandException($"{string.Join(' ', command)}: no answer in {CommandTimeout.TotalSeconds:0} s");
            }

            return process.ExitCode == 0
                ? await output
                : throw new NetworkCommandException($"{string.Join(' ', command)}: {(await error).Trim()}");
        }
    }

    public static string? FindTool(string name) =>
        (Environment.GetEnvironmentVariable("PATH") ?? "").Split(':').Append("/usr/sbin").Append("/sbin")
            .Select(directory => Path.Combine(directory, name))
            .FirstOrDefault(File.Exists);
}
