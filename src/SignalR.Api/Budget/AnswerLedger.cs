using Microsoft.AspNetCore.Connections.Features;

namespace ProtocolBench.SignalR.Api.Budget;

/// <summary>
/// One hub connection's account of its answers: the bytes the hub has written to it, and which answers hold a
/// <see cref="ResponseBudget"/> reservation. An answer is written after its hub method has returned (SignalR serializes
/// the completion later, into the connection's pipe), so <see cref="CountedHubProtocol"/> tells the ledger when the answer
/// it expects has been written and how far the connection must then have sent; the budget returns the reservation once it
/// has (<see cref="ConnectionProgress"/>), or takes it back from a connection that stops sending while others wait.
/// </summary>
internal sealed class AnswerLedger : IDisposable
{
    private readonly Lock _lock = new();
    private readonly long _start;
    private readonly List<Reservation> _written = [];
    private (object Answer, Reservation Reservation)? _expected;
    private bool _disposed;

    private AnswerLedger(HttpContext upgrade)
    {
        Upgrade = upgrade;
        // The upgrade's 101 and the hub's handshake are sent by now; the hub's messages are counted from here.
        _start = upgrade.Features.Get<ConnectionProgress>()?.BytesWritten ?? 0;
    }

    /// <summary>The WebSocket's upgrade request: its connection's byte count, and what aborting the connection takes.</summary>
    public HttpContext Upgrade { get; }

    /// <summary>
    /// Opens the ledger of a connection that has just connected, and puts its <see cref="AnswerWriter"/> (over a
    /// <see cref="SplicingWriter"/> of <paramref name="answers"/>) between the hub and the connection's pipe (SignalR reads the pipe from the connection for every message it writes). Null when the
    /// connection is not a WebSocket's.
    /// </summary>
    public static AnswerLedger? Open(HubCallerContext context, SharedAnswers answers)
    {
        if (context.GetHttpContext() is not { } upgrade || context.Features.Get<IConnectionTransportFeature>() is not { } transport)
        {
            return null;
        }

        var ledger = new AnswerLedger(upgrade);
        var output = new AnswerWriter(new SplicingWriter(upgrade, answers, transport.Transport.Output), ledger);
        transport.Transport = new DuplexPipe(transport.Transport.Input, output);
        return ledger;
    }

    /// <summary>
    /// <paramref name="answer"/>, returned by the hub method, holds <paramref name="reservation"/> until it has been sent. An
    /// answer still expected is replaced: it was never written, and never will be.
    /// </summary>
    public void Expect(object answer, Reservation reservation)
    {
        Reservation? replaced;
        lock (_lock)
        {
            if (_disposed)
            {
                replaced = reservation;
            }
            else
            {
                replaced = _expected?.Reservation;
                _expected = (answer, reservation);
            }
        }

        replaced?.Dispose();
    }

    /// <summary>A message has been written, the hub's bytes now <paramref name="written"/>: when it is the expected answer, says how far the connection must send.</summary>
    public void Wrote(HubMessage message, long written)
    {
        lock (_lock)
        {
            if (_expected is { } expected && message is CompletionMessage { HasResult: true } completion && ReferenceEquals(completion.Result, expected.Answer))
            {
                _expected = null;
                // The WebSocket's frame headers make the connection's count run a few bytes a frame ahead of the hub's: the
                // reservation returns when at most that many of its bytes are still buffered.
                expected.Reservation.Written(_start + written);
                _written.Add(expected.Reservation);
            }
        }
    }

    /// <summary>
    /// Returns the reservations of the answers before this one. Called when the connection's next invocation starts: SignalR
    /// starts it only once the previous answer's write has completed, so all but Kestrel's own buffers of it have been sent,
    /// and an answer still expected then was never written (its completion failed) and never will be.
    /// </summary>
    public void ReleaseWritten() => Release(ending: false);

    /// <summary>The connection has ended: everything it held goes back.</summary>
    public void Dispose() => Release(ending: true);

    private void Release(bool ending)
    {
        List<Reservation> released;
        lock (_lock)
        {
            _disposed |= ending;
            if (_written.Count == 0 && _expected is null)
            {
                return;
            }

            released = [.. _written];
            _written.Clear();
            if (_expected is { } expected)
            {
                released.Add(expected.Reservation);
                _expected = null;
            }
        }

        foreach (var reservation in released)
        {
            reservation.Dispose();
        }
    }
}
