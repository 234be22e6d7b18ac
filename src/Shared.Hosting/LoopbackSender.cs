using System.Net;
using System.Net.Sockets;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;
using ProtocolBench.Shared.Domain;
using ProtocolBench.Shared.Domain.Payloads;

namespace ProtocolBench.Shared.Hosting;

/// <summary>
/// The loopback limit the binary files' cells are held against: a plain TCP socket, with no HTTP and no framing, that
/// answers each byte it receives with a payload file's bytes (<see cref="TextFile"/>: the text file, <see cref="PdfFile"/>:
/// the PDF). The benchmark times moving the same bytes between the same cores over the same link, without any protocol.
/// It listens only when Endpoints:SenderPort is set (the benchmark command asks the REST service for it), on the
/// service's address, and the ready line announces its port.
/// Written by hand: it is the absence of a protocol, which no library offers.
/// Bounded like the service's other endpoints: a few connections at a time (more are closed at once), an idle
/// connection closed after Kestrel's keep-alive timeout, a send that outlasts the request timeout ends its connection,
/// and any other byte closes it.
/// </summary>
public sealed class LoopbackSender(PayloadFiles files, IOptions<EndpointOptions> endpoints, IConfiguration configuration) : IHostedService
{
    public const byte TextFile = (byte)'t';
    public const byte PdfFile = (byte)'p';
    private const int MaxConnections = 8;

    private readonly CancellationTokenSource _stopping = new();
    private readonly SemaphoreSlim _connections = new(MaxConnections);
    private Socket? _listener;
    private Task _accepting = Task.CompletedTask;

    /// <summary>The port it listens on; null when it was not asked to listen.</summary>
    public int? Port => (_listener?.LocalEndPoint as IPEndPoint)?.Port;

    /// <summary>Binds before the service says it is ready, so that a taken port stops the start like Kestrel's.</summary>
    public Task StartAsync(CancellationToken cancellationToken)
    {
        if (endpoints.Value.SenderPort is not { } port)
        {
            return Task.CompletedTask;
        }

        var address = IPAddress.Parse(endpoints.Value.Address);
        _listener = new Socket(address.AddressFamily, SocketType.Stream, ProtocolType.Tcp);
        try
        {
            _listener.Bind(new IPEndPoint(address, port));
            _listener.Listen(MaxConnections);
        }
        catch (SocketException e) when (e.SocketErrorCode == SocketError.AddressAlreadyInUse)
        {
            _listener.Dispose();
            _listener = null;
            throw new IOException($"Failed to bind the loopback sender to {address}:{port}: address already in use", e);
        }

        _accepting = AcceptAsync(_stopping.Token);
        return Task.CompletedTask;
    }

    public async Task StopAsync(CancellationToken cancellationToken)
    {
        await _stopping.CancelAsync();
        _listener?.Dispose();
        await _accepting;
    }

    private async Task AcceptAsync(CancellationToken stopping)
    {
        while (!stopping.IsCancellationRequested)
        {
            Socket connection;
            try
            {
                connection = await _listener!.AcceptAsync(stopping);
            }
            catch (Exception e) when (e is OperationCanceledException or ObjectDisposedException)
            {
                return;
            }
            catch (SocketException)
            {
                // The connection went before it was accepted (reset): the next one is unaffected.
                continue;
            }

            if (!_connections.Wait(0))
            {
                connection.Dispose();
                continue;
            }

            _ = ServeAsync(connection, stopping);
        }
    }

    private async Task ServeAsync(Socket connection, CancellationToken stopping)
    {
        var sendTimeout = ServiceDefaults.RequestTimeout(configuration);
        try
        {
            connection.NoDelay = true;
            var request = new byte[1];
            while (true)
            {
                using var idle = CancellationTokenSource.CreateLinkedTokenSource(stopping);
                idle.CancelAfter(ServiceDefaults.KeepAliveTimeout);
                if (await connection.ReceiveAsync(request, SocketFlags.None, idle.Token) == 0)
                {
                    return;
                }

                var file = request[0] switch
                {
                    TextFile => files.Text,
                    PdfFile => files.Pdf,
                    _ => null,
                };
                if (file is null)
                {
                    return;
                }

                using var send = CancellationTokenSource.CreateLinkedTokenSource(stopping);
                send.CancelAfter(sendTimeout);
                for (var sent = 0; sent < file.Length;)
                {
                    sent += await connection.SendAsync(file.AsMemory(sent), SocketFlags.None, send.Token);
                }
            }
        }
        catch (Exception e) when (e is OperationCanceledException or SocketException or DomainException)
        {
            // The client went, was idle or too slow, or the files are not available: its connection ends, nothing else.
        }
        finally
        {
            connection.Dispose();
            _connections.Release();
        }
    }
}
