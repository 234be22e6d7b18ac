using System.Net.WebSockets;

namespace ProtocolBench.Integration.Tests.Infrastructure;

/// <summary>
/// A WebSocket to the SignalR hub that speaks the hub protocol's frames itself, as a client the project did not write
/// may: the handshake, then whatever messages a test sends, JSON (each ends with the record separator 0x1e) or
/// MessagePack (each after its length as a varint).
/// </summary>
public sealed class RawHub : IDisposable
{
    public const char RecordSeparator = '\u001e';

    /// <summary>
    /// The target and arguments of a call whose answer the budget reserves until sent: a clone of 1 MiB of control
    /// characters (6 MiB of JSON, 8 MiB with its text; six fill the budget). The PDF was such a call until row 93.
    /// </summary>
    public static readonly string ReservedClone =
        $"\"target\":\"Clone\",\"arguments\":[{JsonSerializer.Serialize(new string('\u0001', Limits.CloneTextMaxLength))},{Limits.CloneOutputMaxChars / Limits.CloneTextMaxLength}]";

    private readonly MemoryStream _received = new();
    private readonly List<long> _messageEnds = [];

    private RawHub(ClientWebSocket socket) => Socket = socket;

    public ClientWebSocket Socket { get; }

    /// <summary>Connects to the hub at <paramref name="hub"/> (ws:// or wss://) and completes the handshake for <paramref name="protocol"/>.</summary>
    public static async Task<RawHub> OpenAsync(Uri hub, string protocol, CancellationToken cancellationToken, HttpMessageInvoker? invoker = null)
    {
        var socket = new ClientWebSocket();
        try
        {
            await socket.ConnectAsync(hub, invoker, cancellationToken);
            await socket.SendAsync(Encoding.UTF8.GetBytes($"{{\"protocol\":\"{protocol}\",\"version\":1}}{RecordSeparator}"), WebSocketMessageType.Text, true, cancellationToken);
        }
        catch
        {
            socket.Dispose();
            throw;
        }

        return new RawHub(socket);
    }

    /// <summary>The hub's address for <paramref name="baseUri"/>, the SignalR service's http(s) address.</summary>
    public static Uri Address(Uri baseUri) => new UriBuilder(baseUri) { Scheme = baseUri.Scheme == "https" ? "wss" : "ws", Path = "hub" }.Uri;

    /// <summary>Sends one JSON hub message (the record separator is added).</summary>
    public Task SendJsonAsync(string message, CancellationToken cancellationToken) =>
        Socket.SendAsync(Encoding.UTF8.GetBytes(message + RecordSeparator), WebSocketMessageType.Text, true, cancellationToken);

    /// <summary>Sends one JSON hub message given as bytes (the record separator is added) in a binary frame, as a client may.</summary>
    public Task SendJsonAsync(byte[] message, CancellationToken cancellationToken) =>
        Socket.SendAsync((byte[])[.. message, (byte)RecordSeparator], WebSocketMessageType.Binary, true, cancellationToken);

    /// <summary>Sends one MessagePack hub message (its length prefix is added; every test message is under 128 bytes).</summary>
    public Task SendMessagePackAsync(byte[] message, CancellationToken cancellationToken)
    {
        ArgumentOutOfRangeException.ThrowIfGreaterThan(message.Length, 127);
        return Socket.SendAsync((byte[])[(byte)message.Length, .. message], WebSocketMessageType.Binary, true, cancellationToken);
    }

    /// <summary>Reads until what has arrived (from byte <paramref name="after"/>) holds <paramref name="expected"/>; false when it has not within <paramref name="within"/>.</summary>
    public async Task<bool> ReceivedAsync(byte[] expected, TimeSpan within, CancellationToken cancellationToken, int after = 0)
    {
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(within > TimeSpan.Zero ? within : TimeSpan.Zero);
        var buffer = new byte[16 * 1024];
        while (_received.GetBuffer().AsSpan(after, (int)_received.Length - after).IndexOf(expected) < 0)
        {
            try
            {
                var read = await Socket.ReceiveAsync(buffer, timeout.Token);
                if (read.MessageType == WebSocketMessageType.Close)
                {
                    return false;
                }

                _received.Write(buffer, 0, read.Count);
                if (read.EndOfMessage)
                {
                    _messageEnds.Add(_received.Length);
                }
            }
            catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>
    /// Whether <paramref name="expected"/>, received by <see cref="ReceivedAsync"/>, came whole in one WebSocket message: one
    /// ended at its end and none within it. Whole hub messages may come before it in the same WebSocket message: SignalR
    /// sends what one flush of its pipe holds as one, and the handshake's answer shares the first answer's in about 1 call
    /// of 13 on a busy machine (measured: 23 of 300).
    /// </summary>
    public bool CameWholeInOneWebSocketMessage(byte[] expected)
    {
        var start = _received.GetBuffer().AsSpan(0, (int)_received.Length).IndexOf(expected);
        var end = start + expected.Length;
        return start >= 0 && _messageEnds.Contains(end) && !_messageEnds.Any(e => e > start && e < end);
    }

    /// <summary>
    /// Sends a JSON invocation with id <paramref name="id"/> (<paramref name="invocation"/>: its target and arguments) and
    /// returns the whole message that answers it, or null when none has come within <paramref name="within"/> (10 s unless given).
    /// </summary>
    public async Task<string?> InvokeAsync(string id, string invocation, CancellationToken cancellationToken, TimeSpan? within = null)
    {
        await SendJsonAsync($"{{\"type\":1,\"invocationId\":\"{id}\",{invocation}}}", cancellationToken);
        return await AnswerAsync(id, within ?? TimeSpan.FromSeconds(10), cancellationToken);
    }

    /// <summary>The whole JSON hub message that answers invocation <paramref name="id"/>, or null when it has not come within <paramref name="within"/>.</summary>
    public async Task<string?> AnswerAsync(string id, TimeSpan within, CancellationToken cancellationToken)
    {
        var marker = Encoding.UTF8.GetBytes($"\"invocationId\":\"{id}\"");
        var deadline = DateTime.UtcNow + within;
        if (!await ReceivedAsync(marker, within, cancellationToken))
        {
            return null;
        }

        // Its end: the record separator after it.
        while (true)
        {
            var received = _received.GetBuffer().AsSpan(0, (int)_received.Length);
            var start = received.IndexOf(marker);
            var end = received[start..].IndexOf((byte)RecordSeparator);
            if (end >= 0)
            {
                var message = Encoding.UTF8.GetString(received[..(start + end)]);
                return message[(message.LastIndexOf(RecordSeparator) + 1)..];
            }

            if (!await ReceivedAsync([(byte)RecordSeparator], deadline - DateTime.UtcNow, cancellationToken, after: start))
            {
                return null;
            }
        }
    }

    /// <summary>
    /// Whether the service has closed the socket: its close frame or a broken connection within <paramref name="within"/>;
    /// what it sends before that (a ping) is read past.
    /// </summary>
    public async Task<bool> ClosedAsync(TimeSpan within, CancellationToken cancellationToken)
    {
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(within);
        var buffer = new byte[4096];
        try
        {
            while (Socket.State == WebSocketState.Open)
            {
                if ((await Socket.ReceiveAsync(buffer, timeout.Token)).MessageType == WebSocketMessageType.Close)
                {
                    return true;
                }
            }

            return true;
        }
        catch (WebSocketException)
        {
            return true;
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            return false;
        }
    }

    public void Dispose()
    {
        Socket.Abort();
        Socket.Dispose();
    }
}
