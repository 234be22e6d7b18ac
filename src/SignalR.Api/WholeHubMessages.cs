using System.Net.WebSockets;
using Microsoft.AspNetCore.Http.Features;

namespace ProtocolBench.SignalR.Api;

/// <summary>
/// Ends a WebSocket message only where a hub message ends. SignalR's WebSocket transport sends what each flush of the
/// hub's pipe holds as one WebSocket message, and the JavaScript client (<c>@microsoft/signalr</c>, both hub protocols)
/// reads each WebSocket message as whole hub messages ("Incomplete message" otherwise; the .NET client reassembles). A
/// shared file is written a piece at a time, each piece flushed as its reader takes it (<see cref="Budget.SplicedCompletions"/>),
/// so the pieces before a hub message's end go as fragments of one WebSocket message (RFC 6455 §5.4, which every client
/// reassembles). Where a hub message ends: the handshake and each JSON message end with the record separator 0x1e (JSON
/// escapes it inside strings); a MessagePack message is its length as a varint and that many bytes. Every other send is
/// passed on as SignalR made it. By hand: SignalR has no setting for it.
/// </summary>
internal sealed class WholeHubMessages(WebSocket inner) : WebSocket
{
    private const byte RecordSeparator = 0x1e;

    private Part _part = Part.Handshake;
    private bool _open;
    private long _left;
    private int _shift;

    private enum Part
    {
        Handshake,
        Protocol,
        Json,
        Length,
        Body,
    }

    /// <summary>Middleware that gives SignalR this socket in place of the one the upgrade accepts.</summary>
    public static RequestDelegate Wrap(RequestDelegate next) => context =>
    {
        if (context.Features.Get<IHttpWebSocketFeature>() is { IsWebSocketRequest: true } feature)
        {
            context.Features.Set<IHttpWebSocketFeature>(new Feature(feature));
        }

        return next(context);
    };

    public override WebSocketCloseStatus? CloseStatus => inner.CloseStatus;

    public override string? CloseStatusDescription => inner.CloseStatusDescription;

    public override WebSocketState State => inner.State;

    public override string? SubProtocol => inner.SubProtocol;

    public override ValueTask SendAsync(ReadOnlyMemory<byte> buffer, WebSocketMessageType messageType, bool endOfMessage, CancellationToken cancellationToken) =>
        inner.SendAsync(buffer, messageType, EndsHubMessage(buffer.Span, messageType) && endOfMessage, cancellationToken);

    public override ValueTask SendAsync(ReadOnlyMemory<byte> buffer, WebSocketMessageType messageType, WebSocketMessageFlags messageFlags, CancellationToken cancellationToken) =>
        inner.SendAsync(buffer, messageType, EndsHubMessage(buffer.Span, messageType) ? messageFlags : messageFlags & ~WebSocketMessageFlags.EndOfMessage, cancellationToken);

    public override Task SendAsync(ArraySegment<byte> buffer, WebSocketMessageType messageType, bool endOfMessage, CancellationToken cancellationToken) =>
        SendAsync(buffer.AsMemory(), messageType, endOfMessage, cancellationToken).AsTask();

    public override Task<WebSocketReceiveResult> ReceiveAsync(ArraySegment<byte> buffer, CancellationToken cancellationToken) =>
        inner.ReceiveAsync(buffer, cancellationToken);

    public override ValueTask<ValueWebSocketReceiveResult> ReceiveAsync(Memory<byte> buffer, CancellationToken cancellationToken) =>
        inner.ReceiveAsync(buffer, cancellationToken);

    public override Task CloseAsync(WebSocketCloseStatus closeStatus, string? statusDescription, CancellationToken cancellationToken) =>
        inner.CloseAsync(closeStatus, statusDescription, cancellationToken);

    public override Task CloseOutputAsync(WebSocketCloseStatus closeStatus, string? statusDescription, CancellationToken cancellationToken) =>
        inner.CloseOutputAsync(closeStatus, statusDescription, cancellationToken);

    public override void Abort() => inner.Abort();

    public override void Dispose() => inner.Dispose();

    /// <summary>Follows the hub's messages through <paramref name="bytes"/>, sent after all before: whether they end where a hub message ends.</summary>
    private bool EndsHubMessage(ReadOnlySpan<byte> bytes, WebSocketMessageType messageType)
    {
        while (!bytes.IsEmpty)
        {
            switch (_part)
            {
                case Part.Json:
                    // No 0x1e but at a message's end: whether the last byte is one says it all.
                    _open = bytes[^1] != RecordSeparator;
                    return !_open;
                case Part.Handshake:
                    var end = bytes.IndexOf(RecordSeparator);
                    _open = end < 0;
                    if (_open)
                    {
                        return false;
                    }

                    bytes = bytes[(end + 1)..];
                    _part = Part.Protocol;
                    break;
                case Part.Protocol:
                    // The hub protocol's messages go as binary messages (MessagePack) or text (JSON).
                    _part = messageType == WebSocketMessageType.Binary ? Part.Length : Part.Json;
                    break;
                case Part.Length:
                    _open = true;
                    _left |= (long)(bytes[0] & 0x7f) << _shift;
                    _shift += 7;
                    if (bytes[0] < 0x80)
                    {
                        _shift = 0;
                        _part = Part.Body;
                        _open = _left > 0;
                        if (!_open)
                        {
                            _part = Part.Length;
                        }
                    }

                    bytes = bytes[1..];
                    break;
                case Part.Body:
                    var taken = (int)Math.Min(_left, bytes.Length);
                    bytes = bytes[taken..];
                    _left -= taken;
                    if (_left == 0)
                    {
                        _part = Part.Length;
                        _open = false;
                    }

                    break;
            }
        }

        return !_open;
    }

    private sealed class Feature(IHttpWebSocketFeature inner) : IHttpWebSocketFeature
    {
        public bool IsWebSocketRequest => inner.IsWebSocketRequest;

        public async Task<WebSocket> AcceptAsync(WebSocketAcceptContext context) => new WholeHubMessages(await inner.AcceptAsync(context));
    }
}
