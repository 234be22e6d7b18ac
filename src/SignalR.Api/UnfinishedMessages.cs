using Microsoft.AspNetCore.Connections.Features;

namespace ProtocolBench.SignalR.Api;

/// <summary>
/// The bytes of hub messages received in part, across all connections, held to <see cref="LimitBytes"/>. SignalR keeps a
/// message's bytes until the whole message has arrived (up to its 1 MiB limit), one message per connection, and nothing
/// bounds the connections: 250 WebSockets each holding 1 MiB of an unfinished message held +283 MiB. Past the limit,
/// connections are closed until the rest fit, as a message over the size limit closes its own: first those whose messages
/// have stopped arriving (nothing for <see cref="StalledAfter"/>), the longest stopped first; while every message is still
/// arriving, the largest. So a message that keeps arriving is closed only when it is the largest of 32 MiB of messages that
/// all keep arriving: aiming at it takes some 33 connections each sending close to as much, all the while. ("Oldest first"
/// closed an honest 900 KB message sent over 3 s whenever 40 connections started 1 MB messages after it.) Every message a
/// client of this hub sends in earnest is a few KiB at most, so none comes near the limit. Once the last unfinished message
/// of such a burst is gone, its memory is given back (<see cref="MemoryReclaimer"/>).
/// </summary>
internal sealed class UnfinishedMessages(MemoryReclaimer reclaimer, ILogger<UnfinishedMessages> logger) : IHubFilter
{
    /// <summary>32 messages of the largest size a hub takes, all unfinished at once.</summary>
    public const long LimitBytes = 32L * 1024 * 1024;

    /// <summary>How long a message may receive nothing and still count as arriving.</summary>
    public static readonly TimeSpan StalledAfter = TimeSpan.FromSeconds(0.5);

    private readonly Lock _lock = new();
    private readonly HashSet<Reader> _holding = [];
    private long _held;
    private bool _overran;

    /// <summary>Puts a <see cref="Reader"/> between the connection's transport and SignalR, which reads it once connected.</summary>
    public Task OnConnectedAsync(HubLifetimeContext context, Func<HubLifetimeContext, Task> next)
    {
        if (context.Context.Features.Get<IConnectionTransportFeature>() is { } transport)
        {
            var reader = new Reader(this, transport.Transport.Input, context.Context);
            context.Context.Items[typeof(Reader)] = reader;
            transport.Transport = new DuplexPipe(reader, transport.Transport.Output);
        }

        return next(context);
    }

    public Task OnDisconnectedAsync(HubLifetimeContext context, Exception? exception, Func<HubLifetimeContext, Exception?, Task> next)
    {
        if (context.Context.Items.TryGetValue(typeof(Reader), out var reader) && reader is Reader own)
        {
            own.Close();
        }

        return next(context, exception);
    }

    /// <summary>Records that <paramref name="reader"/>'s connection now holds <paramref name="bytes"/> of a message, and closes holders past the limit (see the class).</summary>
    private void Hold(Reader reader, long bytes)
    {
        List<Reader>? closing = null;
        lock (_lock)
        {
            if (reader.Closed)
            {
                return;
            }

            var now = Environment.TickCount64;
            if (bytes > reader.Held)
            {
                reader.GrewAt = now;
            }

            _held += bytes - reader.Held;
            reader.Held = bytes;
            if (bytes == 0)
            {
                _holding.Remove(reader);
            }
            else
            {
                _holding.Add(reader);
            }

            while (_held > LimitBytes)
            {
                var closed = _holding.Where(r => now - r.GrewAt >= StalledAfter.TotalMilliseconds).MinBy(r => r.GrewAt)
                             ?? _holding.MaxBy(r => r.Held)!;
                Release(closed);
                (closing ??= []).Add(closed);
                _overran = true;
            }

            if (closing is null)
            {
                ReclaimIfOverrunEnded();
                return;
            }
        }

        // The closed connections' messages are garbage once their connections have ended: collected a second later, and
        // again a second after the last unfinished message is gone.
        reclaimer.ReclaimSoon("Hub connections closed for the oldest unfinished messages");
        foreach (var holder in closing)
        {
            logger.LogDebug("Closed the hub connection {Connection}: its unfinished message of {Bytes} bytes had stopped arriving, or was the largest, while unfinished messages held more than {Limit} bytes",
                holder.Connection.ConnectionId, holder.Released, LimitBytes);
            // The upgrade request's connection, not the hub's: SignalR's own abort leaves the socket, and what it
            // received, to the client's close.
            if (holder.Connection.GetHttpContext() is { } upgrade)
            {
                upgrade.Abort();
            }
            else
            {
                holder.Connection.Abort();
            }
        }
    }

    /// <summary>Under the lock: once no message is unfinished after the limit was overrun, gives the burst's memory back.</summary>
    private void ReclaimIfOverrunEnded()
    {
        if (_overran && _held == 0)
        {
            _overran = false;
            reclaimer.ReclaimSoon("Unfinished hub messages are gone after they overran their limit");
        }
    }

    /// <summary>Under the lock: the reader's bytes no longer count, and never will again.</summary>
    private void Release(Reader reader)
    {
        _holding.Remove(reader);
        _held -= reader.Held;
        reader.Released = reader.Held;
        reader.Held = 0;
        reader.Closed = true;
    }

    /// <summary>One connection's input as SignalR reads it, counting what SignalR leaves unconsumed: an unfinished message.</summary>
    private sealed class Reader(UnfinishedMessages owner, PipeReader inner, HubCallerContext connection) : PipeReader
    {
        private ReadOnlySequence<byte> _read;

        public HubCallerContext Connection { get; } = connection;

        /// <summary>Under the owner's lock: the bytes counted, when they last grew, what was counted when it was closed, and whether it was.</summary>
        public long Held { get; set; }

        public long GrewAt { get; set; }

        public long Released { get; set; }

        public bool Closed { get; set; }

        public void Close()
        {
            lock (owner._lock)
            {
                owner.Release(this);
                owner.ReclaimIfOverrunEnded();
            }
        }

        public override async ValueTask<ReadResult> ReadAsync(CancellationToken cancellationToken = default)
        {
            var result = await inner.ReadAsync(cancellationToken);
            _read = result.Buffer;
            return result;
        }

        public override bool TryRead(out ReadResult result)
        {
            if (!inner.TryRead(out result))
            {
                return false;
            }

            _read = result.Buffer;
            return true;
        }

        public override void AdvanceTo(SequencePosition consumed) => AdvanceTo(consumed, consumed);

        public override void AdvanceTo(SequencePosition consumed, SequencePosition examined)
        {
            // Measured before the inner reader lets the consumed segments go.
            var held = _read.Slice(consumed).Length;
            _read = default;
            inner.AdvanceTo(consumed, examined);
            if (held != Held)
            {
                owner.Hold(this, held);
            }
        }

        public override void CancelPendingRead() => inner.CancelPendingRead();

        public override void Complete(Exception? exception = null) => inner.Complete(exception);

        public override ValueTask CompleteAsync(Exception? exception = null) => inner.CompleteAsync(exception);
    }
}
