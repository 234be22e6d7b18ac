namespace ProtocolBench.Benchmarks.Config;

/// <summary>
/// BenchmarkDotNet prints every iteration; the console shows our progress lines instead, plus BenchmarkDotNet's errors.
/// Its full output is always in the log file in the results folder (and on the console with --verbose). Once the run
/// is interrupted, the errors of the cells it keeps from running (their services are stopped) are not printed.
/// </summary>
public sealed class ErrorsOnlyConsoleLogger(Func<bool> interrupted) : ILogger
{
    private bool _lineIsError;

    public string Id => nameof(ErrorsOnlyConsoleLogger);

    public int Priority => 0;

    public void Write(LogKind logKind, string text)
    {
        if (logKind == LogKind.Error && !interrupted())
        {
            _lineIsError = true;
            Console.Error.Write(text);
        }
    }

    public void WriteLine()
    {
        if (_lineIsError)
        {
            Console.Error.WriteLine();
            _lineIsError = false;
        }
    }

    public void WriteLine(LogKind logKind, string text)
    {
        if (logKind == LogKind.Error && !interrupted())
        {
            Console.Error.WriteLine(text);
        }
    }

    public void Flush() => Console.Error.Flush();
}
