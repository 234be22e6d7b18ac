using System.Runtime.InteropServices;

namespace ProtocolBench.LoadTests;

/// <summary>
/// Ctrl+C and SIGTERM stop the run instead of killing it: no new requests, in-flight ones cancelled, partial results
/// written and flagged, services stopped, exit 130. A second Ctrl+C ends the process at once (the services' stdin
/// lifeline still stops them).
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

    public void Request(string reason)
    {
        if (_cts.IsCancellationRequested)
        {
            return;
        }

        Reason = reason;
        _cts.Cancel();
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
        Request(context.Signal.ToString());
    }
}
