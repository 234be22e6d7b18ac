namespace ProtocolBench.Lab.Services;

public static class ProcessOutput
{
    /// <summary>Starts the process and hands each line it writes, to standard output or error, to <paramref name="heard"/>.</summary>
    public static void StartHearing(this Process process, Action<string?> heard)
    {
        process.OutputDataReceived += (_, e) => heard(e.Data);
        process.ErrorDataReceived += (_, e) => heard(e.Data);
        process.Start();
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
    }
}
