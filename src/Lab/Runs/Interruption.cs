using System.Runtime.InteropServices;

namespace ProtocolBench.Lab.Runs;

/// <summary>
/// Ctrl+C and SIGTERM stop a run instead of killing it: the token is cancelled, the command stops measuring, writes
/// what it measured (flagged as partial), stops the services and exits 130 (Ctrl+C) or 143 (SIGTERM). A second Ctrl+C
/// ends the process at once; the services' stdin lifeline still stops them.
/// </summary>
public sealed class Interruption : IDisposable
{
    private readonly CancellationTokenSource _cts = new();
    private readonly List<PosixSignalRegistration> _signals = [];

    public Interruption()
    {
        Console.CancelKeyPress += OnCancelKeyPress;
        if (!OperatingSystem.IsWindows())
        {
            _signals.Add(PosixSignalRegistration.Create(PosixSignal.SIGTERM, OnSignal));
            _signals.Add(PosixSignalRegistration.Create(PosixSignal.SIGQUIT, OnSignal));
        }
    }

    public CancellationToken Token => _cts.Token;

    public bool Requested => _cts.IsCancellationRequested;

    public string? Reason { get; private set; }

    /// <summary>130 after Ctrl+C, 143 after SIGTERM (128 + the signal's number, as shells report it).</summary>
    public int ExitCode { get; private set; } = ExitCodes.CtrlC;

    public void Request(string reason, int exitCode = ExitCodes.CtrlC)
    {
        if (_cts.IsCancellationRequested)
        {
            return;
        }

        Reason = reason;
        ExitCode = exitCode;
        Console.Error.WriteLine($"\n{reason}: stopping the services; what was measured is kept and reported (Ctrl+C again to quit at once)");
        // Off the signal thread: whoever listens to the token may block.
        ThreadPool.QueueUserWorkItem(_ => Cancel());
    }

    public void Dispose()
    {
        Console.CancelKeyPress -= OnCancelKeyPress;
        foreach (var signal in _signals)
        {
            signal.Dispose();
        }

        _cts.Dispose();
    }

    /// <summary>
    /// Cancels the token; a listener that throws is named, not let loose on a pool thread, where it would abort the
    /// process (exit 134) before the reports are written and the services stopped.
    /// </summary>
    private void Cancel()
    {
        try
        {
            _cts.Cancel();
        }
        catch (AggregateException e)
        {
            Console.Error.WriteLine($"While stopping, a listener of the interruption failed: {e.GetBaseException()}");
        }
    }

    private void OnCancelKeyPress(object? sender, ConsoleCancelEventArgs e)
    {
        if (_cts.IsCancellationRequested)
        {
            return;
        }

        e.Cancel = true;
        Request("Ctrl+C");
    }

    private void OnSignal(PosixSignalContext context)
    {
        context.Cancel = true;
        Request(context.Signal.ToString(), context.Signal == PosixSignal.SIGTERM ? ExitCodes.SigTerm : ExitCodes.CtrlC);
    }
}
