namespace ProtocolBench.Shared.Clients;

/// <summary>Bytes sent and received on the client's sockets: plaintext on HTTP, TLS records on HTTPS.</summary>
public sealed class WireCounter
{
    private long _sent;
    private long _received;
    private long _connections;
    private Hook? _hook;

    public long Sent => Interlocked.Read(ref _sent);

    public long Received => Interlocked.Read(ref _received);

    public long Total => Sent + Received;

    /// <summary>Connections opened (TCP connects) since the last <see cref="Reset"/>.</summary>
    public long Connections => Interlocked.Read(ref _connections);

    public void AddConnection() => Interlocked.Increment(ref _connections);

    public void AddSent(long bytes) => Interlocked.Add(ref _sent, bytes);

    public void AddReceived(long bytes)
    {
        var total = Interlocked.Add(ref _received, bytes);
        if (Volatile.Read(ref _hook) is { } hook && total >= hook.AtLeast && Interlocked.CompareExchange(ref _hook, null, hook) == hook)
        {
            hook.Action();
        }
    }

    /// <summary>
    /// Runs <paramref name="action"/> once, on the thread that reads from the socket, as soon as the bytes received reach
    /// <paramref name="atLeast"/>: a test cancels a download truly midway with it, with no other thread to wait for.
    /// </summary>
    public void WhenReceived(long atLeast, Action action) => Volatile.Write(ref _hook, new Hook(atLeast, action));

    public void Reset()
    {
        Interlocked.Exchange(ref _sent, 0);
        Interlocked.Exchange(ref _received, 0);
        Interlocked.Exchange(ref _connections, 0);
    }

    public (long Sent, long Received) Snapshot() => (Sent, Received);

    private sealed record Hook(long AtLeast, Action Action);
}
