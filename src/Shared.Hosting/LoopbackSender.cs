using System.Net;
using System.Net.Sockets;
using ProtocolBench.Shared.Hosting.Budget;

namespace ProtocolBench.Shared.Hosting;

/// <summary>
/// The loopback limit the binary files' cells are held against: a plain TCP socket, with no HTTP and no framing, that
/// answers each byte it receives with a payload file's bytes (<see cref="Floors.SendTextFile"/>: the text file,
/// <see cref="Floors.SendPdf"/>: the PDF). The benchmark times moving the same bytes between the same cores over the same link, without any protocol.
/// It listens only when Endpoints:SenderPort is set (the benchmark command asks the REST service for it), on the
/// service's address, and the ready line announces its port.
/// Written by hand: it is the absence of a protocol, which no library offers.
/// Bounded like the service's other endpoints: a few connections at a time, a send that outlasts the request timeout
/// ends its connection, any other byte closes it, and an idle connection is closed after Kestrel's keep-alive timeout.
/// A place belongs to the connection whose socket moves bytes. When all are taken, one that arrives takes the place of a
/// connection that has asked for nothing <see cref="FirstAskGrace"/> after it came, or else of the one whose socket has
/// moved nothing for the longest (its client asked for nothing, and the socket sent nothing new: Linux's TCP_INFO,
/// <see cref="ConnectionProgress"/>), once that is <see cref="IdleGrace"/>; only while all are busy is it closed at once.
/// (Eight idle connections, or eight that asked for the PDF and never read, kept every other client off it for the
/// keep-alive time; a churn of idle connections, one every 20 ms, each counted active when it came, kept a client that
/// asked off it 8 times in 10; and a reader at 600 KB/s, counted only as each 1 MiB piece ended, gave its place away.)
/// </summary>
public sealed class LoopbackSender(PayloadFiles files, IOptions<EndpointOptions> endpoints, IConfiguration configuration) : IHostedService
{
    private const int MaxConnections = 8;

    /// <summary>
    /// The pieces a file is sent in, each counted as the connection's progress: a few per file, so that sending one costs
    /// no more calls than a whole file would take from the kernel's buffers anyway.
    /// </summary>
    private const int PieceBytes = 1024 * 1024;

    /// <summary>How long a connection may do nothing before one that arrives may take its place.</summary>
    public static readonly TimeSpan IdleGrace = TimeSpan.FromSeconds(1);

    /// <summary>How long a connection that has come may take to ask for its first file before one that arrives may take its place.</summary>
    public static readonly TimeSpan FirstAskGrace = TimeSpan.FromMilliseconds(100);

    private readonly CancellationTokenSource _stopping = new();
    private readonly Lock _lock = new();
    private readonly List<Place> _places = [];
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

            if (Admit(connection) is not { } place)
            {
                connection.Dispose();
                continue;
            }

            _ = ServeAsync(place, stopping);
        }
    }

    /// <summary>
    /// A place for <paramref name="connection"/>: a free one, or the place of a connection that never asked, or of the one
    /// whose socket has moved nothing for longest, once they have had their grace; null while all are busy.
    /// </summary>
    private Place? Admit(Socket connection)
    {
        Place? idlest = null;
        Place admitted;
        lock (_lock)
        {
            if (_places.Count >= MaxConnections)
            {
                var now = Environment.TickCount64;
                idlest = _places.Where(p => !p.HasAsked && now - p.CameAt >= FirstAskGrace.TotalMilliseconds).MinBy(p => p.CameAt)
                         ?? _places.Where(p => p.HasAsked && now - p.ActiveAt(now) >= IdleGrace.TotalMilliseconds).MinBy(p => p.ActiveAt(now));
                if (idlest is null)
                {
                    return null;
                }

                _places.Remove(idlest);
            }

            admitted = new Place(connection);
            _places.Add(admitted);
        }

        // Its receive or send fails at once, and its own loop ends.
        idlest?.Connection.Dispose();
        return admitted;
    }

    private async Task ServeAsync(Place place, CancellationToken stopping)
    {
        var connection = place.Connection;
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

                place.Asked();

                var file = request[0] switch
                {
                    Floors.SendTextFile => files.Text,
                    Floors.SendPdf => files.Pdf,
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
                    sent += await connection.SendAsync(file.AsMemory(sent, Math.Min(PieceBytes, file.Length - sent)), SocketFlags.None, send.Token);
                    place.Asked();
                }
            }
        }
        catch (Exception e) when (e is OperationCanceledException or SocketException or ObjectDisposedException or DomainException)
        {
            // The client went, was idle or too slow, gave its place to another, or the files are not available: its
            // connection ends, nothing else.
        }
        finally
        {
            lock (_lock)
            {
                _places.Remove(place);
            }

            connection.Dispose();
        }
    }

    /// <summary>
    /// One connection's place: when it came, whether it has asked for a file, and when its socket last moved bytes (it asked,
    /// or sent new data of a file as its client read it, which the kernel tells).
    /// </summary>
    private sealed class Place(Socket connection)
    {
        private readonly ConnectionProgress _progress = ConnectionProgress.Of(connection);
        private long _askedAt = Environment.TickCount64;
        private int _asked;

        public Socket Connection { get; } = connection;

        public long CameAt { get; } = Environment.TickCount64;

        public bool HasAsked => Volatile.Read(ref _asked) == 1;

        /// <summary>It asked for a file, or sent a piece of one.</summary>
        public void Asked()
        {
            Volatile.Write(ref _askedAt, Environment.TickCount64);
            Volatile.Write(ref _asked, 1);
        }

        /// <summary>When the socket last moved bytes, as of <paramref name="now"/>: a client still reading its file moves them.</summary>
        public long ActiveAt(long now)
        {
            var askedAt = Volatile.Read(ref _askedAt);
            return _progress.SinceDataSent is { } since ? Math.Max(askedAt, now - (long)since.TotalMilliseconds) : askedAt;
        }
    }
}
