using System.Buffers;
using System.Net.WebSockets;
using Microsoft.AspNetCore.Http.Connections;
using Microsoft.AspNetCore.Http.Connections.Client;
using Microsoft.AspNetCore.SignalR;
using Microsoft.AspNetCore.SignalR.Client;
using Microsoft.Extensions.DependencyInjection;

namespace ProtocolBench.Shared.Clients;

/// <summary>
/// SignalR over a WebSocket (negotiation skipped), with the JSON hub protocol (<see cref="Protocol.SignalR"/>) or
/// MessagePack (<see cref="Protocol.SignalRMessagePack"/>). The socket is opened through the same counted, trusted handler as the HTTP clients, so the bytes counted are the
/// upgrade, the hub's handshake and its frames (TLS records on HTTPS). One WebSocket is kept and reconnected when it
/// closes; with --connections new every call opens its own (TCP, TLS, upgrade, hub handshake) and closes it after.
/// </summary>
public sealed class SignalRProtocolClient : IProtocolClient
{
    private readonly ClientOptions _options;
    private readonly Uri _hub;
    private readonly HttpMessageInvoker _sockets;
    private readonly SemaphoreSlim _connecting = new(1, 1);
    private HubConnection? _connection;

    public SignalRProtocolClient(Protocol protocol, Transport transport, ClientOptions options)
    {
        if (protocol.Service() != Protocol.SignalR)
        {
            throw new ArgumentOutOfRangeException(nameof(protocol), protocol, "SignalR's hub protocols are SignalR (JSON) and SignalRMessagePack.");
        }

        Protocol = protocol;
        Transport = transport;
        _options = options;
        _hub = new Uri(options.Addresses.BaseUri(Protocol.SignalR, transport), "hub");
        _sockets = new HttpMessageInvoker(ClientHandlers.CreateForWebSockets(options, Wire), disposeHandler: true);
    }

    public Protocol Protocol { get; }

    public Transport Transport { get; }

    public WireCounter Wire { get; } = new();

    public Task<string> CloneAsync(string? text, int? count, CancellationToken cancellationToken = default) =>
        InvokeAsync<string>("Clone", [text, count], cancellationToken);

    public Task<int> GetIntMaxAsync(CancellationToken cancellationToken = default) =>
        InvokeAsync<int>("GetIntMax", [], cancellationToken);

    public Task<int[]> GetIntsAsync(int? count, CancellationToken cancellationToken = default) =>
        InvokeAsync<int[]>("GetInts", [count], cancellationToken);

    public Task<AuthorDto> GetSampleAsync(CancellationToken cancellationToken = default) =>
        InvokeAsync<AuthorDto>("GetSample", [], cancellationToken);

    public async Task<byte[]> GetTextFileAsync(CancellationToken cancellationToken = default) =>
        (await InvokeAsync<FilePayload>("GetTextFile", [], cancellationToken)).Data;

    public async Task<byte[]> GetPdfAsync(CancellationToken cancellationToken = default) =>
        (await InvokeAsync<FilePayload>("GetPdf", [], cancellationToken)).Data;

    /// <summary>A hub method returns one message; the text file has no other form.</summary>
    public Task<byte[]>? GetTextFileBinaryAsync(CancellationToken cancellationToken = default) => null;

    /// <summary>The PDF as the hub's stream of 64 KiB chunks (StreamPdf), like gRPC's.</summary>
    public Task<byte[]>? GetPdfBinaryAsync(CancellationToken cancellationToken = default) => StreamPdfAsync(cancellationToken);

    public async Task<IReadOnlyList<AuthorDto>> SearchAuthorsAsync(string? phrase, int? limit = null, CancellationToken cancellationToken = default) =>
        await InvokeAsync<List<AuthorDto>>("SearchAuthors", [phrase, limit], cancellationToken);

    public async Task<IReadOnlyList<AuthorDto>> ListAuthorsAsync(int? skip = null, int? take = null, CancellationToken cancellationToken = default) =>
        await InvokeAsync<List<AuthorDto>>("ListAuthors", [skip, take], cancellationToken);

    public Task<AuthorDto> GetAuthorAsync(int id, CancellationToken cancellationToken = default) =>
        InvokeAsync<AuthorDto>("GetAuthor", [id], cancellationToken);

    public Task<AuthorDto> CreateAuthorAsync(string? name, string? country, CancellationToken cancellationToken = default) =>
        InvokeAsync<AuthorDto>("CreateAuthor", [name, country], cancellationToken);

    public Task<AuthorDto> UpdateAuthorAsync(int id, string? name, string? country, CancellationToken cancellationToken = default) =>
        InvokeAsync<AuthorDto>("UpdateAuthor", [id, name, country], cancellationToken);

    public Task DeleteAuthorAsync(int id, CancellationToken cancellationToken = default) =>
        InvokeAsync<object?>("DeleteAuthor", [id], cancellationToken);

    public Task<ShapeDto> GetShapeAsync(string? kind, int id, CancellationToken cancellationToken = default) =>
        InvokeAsync<ShapeDto>("GetShape", [kind, id], cancellationToken);

    public async Task<IReadOnlyList<ShapeDto>> ListShapesAsync(string? kind, int? count = null, CancellationToken cancellationToken = default) =>
        await InvokeAsync<List<ShapeDto>>("ListShapes", [kind, count], cancellationToken);

    public async ValueTask DisposeAsync()
    {
        if (_connection is { } connection)
        {
            await connection.DisposeAsync();
        }

        _sockets.Dispose();
        _connecting.Dispose();
    }

    private Task<T> InvokeAsync<T>(string method, object?[] arguments, CancellationToken cancellationToken) =>
        CallAsync((connection, token) => connection.InvokeCoreAsync<T>(method, arguments, token), cancellationToken);

    private Task<byte[]> StreamPdfAsync(CancellationToken cancellationToken) =>
        CallAsync(async (connection, token) =>
        {
            var file = new ArrayBufferWriter<byte>(4 * 1024 * 1024);
            await foreach (var chunk in connection.StreamAsyncCore<byte[]>("StreamPdf", [], token))
            {
                file.Write(chunk);
            }

            return file.WrittenSpan.ToArray();
        }, cancellationToken);

    /// <summary>One call on a started connection, bounded by the call timeout; errors in the other clients' terms.</summary>
    private async Task<T> CallAsync<T>(Func<HubConnection, CancellationToken, Task<T>> call, CancellationToken cancellationToken)
    {
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(_options.CallTimeout);
        HubConnection? own = null;
        try
        {
            var connection = _options.Connections == ConnectionPolicy.New
                ? own = await StartAsync(timeout.Token)
                : await WarmAsync(timeout.Token);
            return await call(connection, timeout.Token);
        }
        catch (HubException e)
        {
            throw HubErrorMessage.Translate(e);
        }
        catch (OperationCanceledException e) when (!cancellationToken.IsCancellationRequested && timeout.IsCancellationRequested)
        {
            throw new TaskCanceledException($"The call did not complete within {_options.CallTimeout.TotalSeconds:0.###} s.", new TimeoutException(e.Message));
        }
        catch (TaskCanceledException e) when (!timeout.IsCancellationRequested)
        {
            // SignalR fails the calls in flight this way when the socket closes under them.
            throw new IOException(e.Message, e);
        }
        finally
        {
            if (own is not null)
            {
                await own.DisposeAsync();
            }
        }
    }

    /// <summary>The kept connection, opened (again) when it is not connected.</summary>
    private async Task<HubConnection> WarmAsync(CancellationToken cancellationToken)
    {
        if (_connection is { State: HubConnectionState.Connected } connected)
        {
            return connected;
        }

        await _connecting.WaitAsync(cancellationToken);
        try
        {
            if (_connection is { State: HubConnectionState.Connected } other)
            {
                return other;
            }

            if (_connection is { } closed)
            {
                await closed.DisposeAsync();
                _connection = null;
            }

            return _connection = await StartAsync(cancellationToken);
        }
        finally
        {
            _connecting.Release();
        }
    }

    private async Task<HubConnection> StartAsync(CancellationToken cancellationToken)
    {
        var builder = new HubConnectionBuilder().WithUrl(_hub, HttpTransportType.WebSockets, o =>
        {
            o.SkipNegotiation = true;
            o.WebSocketFactory = ConnectAsync;
        });
        if (Protocol == Protocol.SignalRMessagePack)
        {
            builder.AddMessagePackProtocol();
        }

        var connection = builder.Build();
        using var connect = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        connect.CancelAfter(_options.ConnectTimeout);
        try
        {
            await connection.StartAsync(connect.Token);
            return connection;
        }
        catch
        {
            await connection.DisposeAsync();
            throw;
        }
    }

    private async ValueTask<WebSocket> ConnectAsync(WebSocketConnectionContext context, CancellationToken cancellationToken)
    {
        var socket = new ClientWebSocket();
        try
        {
            await socket.ConnectAsync(context.Uri, _sockets, cancellationToken);
            return socket;
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }
}

/// <summary>
/// Reads the code back out of a hub error. SignalR delivers only a message, prefixed with its own words
/// ("An unexpected error occurred invoking 'GetInts' on the server. HubException: INVALID_ARGUMENT count: ..."); the
/// service puts the code and the field first, also for arguments that do not bind (INVALID_ARGUMENT, as on the other
/// protocols) and an unknown method (UNIMPLEMENTED, as on gRPC). Anything else is INTERNAL.
/// </summary>
public static class HubErrorMessage
{
    private const string Marker = "HubException: ";

    public static ProtocolClientException Translate(HubException e)
    {
        var message = e.Message;
        var at = message.IndexOf(Marker, StringComparison.Ordinal);
        if (at >= 0)
        {
            var own = message[(at + Marker.Length)..];
            var end = own.IndexOfAny([' ', ':']);
            var code = end > 0 ? own[..end] : own;
            if (code.Length > 0 && code.All(c => char.IsAsciiLetterUpper(c) || c == '_'))
            {
                var colon = own.IndexOf(": ", StringComparison.Ordinal);
                return new ProtocolClientException(code, colon > 0 ? own[(colon + 2)..] : own, $"SignalR {code}", e);
            }
        }

        return new ProtocolClientException("INTERNAL", message, "SignalR INTERNAL", e);
    }
}
