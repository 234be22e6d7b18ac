namespace ProtocolBench.Integration.Tests.Infrastructure;

/// <summary>
/// A loopback TCP forwarder between the services and PostgreSQL, so a test can take "the database" away
/// (cut every connection and refuse new ones) and bring it back, without touching the real server other tests use.
/// It listens on a port the kernel chose for its whole life, so no other process can take that port while it is "down".
/// </summary>
public sealed class TcpProxy : IAsyncDisposable
{
    private readonly IPEndPoint _target;
    private readonly List<TcpClient> _connections = [];
    private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
    private readonly CancellationTokenSource _cts = new();
    private volatile bool _up;

    public TcpProxy(IPEndPoint target)
    {
        _target = target;
        _listener.Start();
        Port = ((IPEndPoint)_listener.LocalEndpoint).Port;
        _ = AcceptLoopAsync(_cts.Token);
    }

    public int Port { get; }

    public bool IsUp => _up;

    /// <summary>Forwards new connections.</summary>
    public void Start() => _up = true;

    /// <summary>Resets every open connection, and every new one as soon as it is accepted: to the services the database is gone.</summary>
    public void Stop()
    {
        lock (_connections)
        {
            _up = false;
            _connections.ForEach(Reset);
            _connections.Clear();
        }
    }

    public ValueTask DisposeAsync()
    {
        Stop();
        _cts.Cancel();
        _listener.Stop();
        _cts.Dispose();
        return ValueTask.CompletedTask;
    }

    private static void Reset(TcpClient connection)
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

    private async Task AcceptLoopAsync(CancellationToken cancellationToken)
    {
        while (!cancellationToken.IsCancellationRequested)
        {
            TcpClient inbound;
            try
            {
                inbound = await _listener.AcceptTcpClientAsync(cancellationToken);
            }
            catch (Exception e) when (e is OperationCanceledException or SocketException or ObjectDisposedException)
            {
                return;
            }

            if (!_up)
            {
                Reset(inbound);
                continue;
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
                // Stopped while connecting: this one is cut like the others.
                if (!_up)
                {
                    Reset(inbound);
                    Reset(outbound);
                    continue;
                }

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
