using System.Net;
using System.Net.Sockets;

namespace ProtocolBench.Integration.Tests.Infrastructure;

/// <summary>
/// A loopback TCP forwarder between the services and PostgreSQL, so a test can take "the database" away
/// (refuse and cut every connection) and bring it back, without touching the real server other tests use.
/// </summary>
public sealed class TcpProxy : IAsyncDisposable
{
    private readonly IPEndPoint _target;
    private readonly List<TcpClient> _connections = [];
    private TcpListener? _listener;
    private CancellationTokenSource _cts = new();

    public TcpProxy(IPEndPoint target, int port)
    {
        _target = target;
        Port = port;
    }

    public int Port { get; }

    public bool IsUp => _listener is not null;

    public void Start()
    {
        _cts = new CancellationTokenSource();
        _listener = new TcpListener(IPAddress.Loopback, Port);
        _listener.Server.SetSocketOption(SocketOptionLevel.Socket, SocketOptionName.ReuseAddress, true);
        _listener.Start();
        _ = AcceptLoopAsync(_listener, _cts.Token);
    }

    /// <summary>Stops listening and resets every open connection: to the services the database is gone.</summary>
    public void Stop()
    {
        _cts.Cancel();
        _listener?.Stop();
        _listener = null;
        lock (_connections)
        {
            foreach (var connection in _connections)
            {
                try
                {
                    connection.Client?.LingerState = new LingerOption(true, 0);
                }
                catch (Exception e) when (e is SocketException or ObjectDisposedException)
                {
                }

                connection.Dispose();
            }

            _connections.Clear();
        }
    }

    public ValueTask DisposeAsync()
    {
        Stop();
        return ValueTask.CompletedTask;
    }

    private async Task AcceptLoopAsync(TcpListener listener, CancellationToken cancellationToken)
    {
        while (!cancellationToken.IsCancellationRequested)
        {
            TcpClient inbound;
            try
            {
                inbound = await listener.AcceptTcpClientAsync(cancellationToken);
            }
            catch (Exception e) when (e is OperationCanceledException or SocketException or ObjectDisposedException)
            {
                return;
            }

            var outbound = new TcpClient();
            try
            {
                await outbound.ConnectAsync(_target, cancellationToken);
            }
            catch (Exception e) when (e is OperationCanceledException or SocketException)
            {
                inbound.Dispose();
                outbound.Dispose();
                continue;
            }

            lock (_connections)
            {
                _connections.Add(inbound);
                _connections.Add(outbound);
            }

            _ = PumpAsync(inbound, outbound, cancellationToken);
            _ = PumpAsync(outbound, inbound, cancellationToken);
        }
    }

    private static async Task PumpAsync(TcpClient from, TcpClient to, CancellationToken cancellationToken)
    {
        try
        {
            await from.GetStream().CopyToAsync(to.GetStream(), cancellationToken);
        }
        catch (Exception e) when (e is IOException or OperationCanceledException or ObjectDisposedException or SocketException)
        {
        }
        finally
        {
            from.Dispose();
            to.Dispose();
        }
    }
}
