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
public sealed class SignalRProtocolClient : ProtocolClient
{
    private readonly ClientOptions _options;
    private readonly Uri _hub;
    private readonly HttpMessageInvoker _sockets;
    private readonly SemaphoreSlim _connecting = new(1, 1);
    private HubConnection? _connection;

    public SignalRProtocolClient(Protocol protocol, Transport transport, ClientOptions options)
        : base(protocol, transport)
    {
        if (protocol.Service() != Protocol.SignalR)
        {
            throw new ArgumentOutOfRangeException(nameof(protocol), protocol, "SignalR's hub protocols are SignalR (JSON) and SignalRMessagePack.");
        }

        _options = options;
        _hub = new Uri(options.Addresses.BaseUri(Protocol.SignalR, transport), "hub");
        _sockets = new HttpMessageInvoker(ClientHandlers.CreateForWebSockets(options, Wire), disposeHandler: true);
    }

    public override bool Offers(Operation operation) => operation.OnHub;

    /// <summary>
    /// The hub method of the operation's name with its arguments in order; a stream of bytes (StreamPdf) is read whole.
    /// A method that answers nothing (DeleteAuthor) answers true once it completed.
    /// </summary>
    public override Task<TResult> CallAsync<TResult>(OperationCall<TResult> call, CancellationToken cancellationToken = default)
    {
        var operation = call.Operation;
        if (!operation.OnHub)
        {
            throw new NotSupportedException($"The hub does not offer {operation.Name}.");
        }

        object?[] arguments = [.. call.Values];
        if (operation.IsStreamed)
        {
            return (Task<TResult>)(object)StreamAsync(operation.Name, arguments, cancellationToken);
        }

        if (typeof(TResult) == typeof(bool))
        {
            return CallAsync(
                async (connection, token) => (TResult)(await connection.InvokeCoreAsync(operation.Name, typeof(object), arguments, token) ?? true),
                cancellationToken);
        }

        return CallAsync((connection, token) => connection.InvokeCoreAsync<TResult>(operation.Name, arguments, token), cancellationToken);
    }

    public override async ValueTask DisposeAsync()
    {
        if (_connection is { } connection)
        {
            await connection.DisposeAsync();
        }

        _sockets.Dispose();
        _connecting.Dispose();
    }

    private Task<byte[]> StreamAsync(string method, object?[] arguments, CancellationToken cancellationToken) =>
        CallAsync(async (connection, token) =>
        {
            var file = new ArrayBufferWriter<byte>(4 * 1024 * 1024);
            await foreach (var chunk in connection.StreamAsyncCore<byte[]>(method, arguments, token))
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
