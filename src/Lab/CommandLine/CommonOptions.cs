using System.CommandLine;
using System.Net;
using Microsoft.Data.Sqlite;
using ProtocolBench.Lab.Conditions;
using ProtocolBench.Lab.Network;

namespace ProtocolBench.Lab.CommandLine;

/// <summary>
/// The options both commands share, parsed by System.CommandLine the same way in both: `--name value`, `--name=value`
/// and `--name:value`; a connection string alone names its database (Data Source=FILE: SQLite); PostgreSQL needs one.
/// </summary>
public sealed partial class CommonOptions
{
    public Option<string?> External { get; } = new("--external")
    {
        Description = "Use the services already running on HOST (ports: --ports); start nothing. HTTPS needs a certificate naming HOST (or --tls-host).",
        HelpName = "HOST",
    };

    public Option<string?> TlsHost { get; } = new("--tls-host")
    {
        Description = "Host name for HTTPS with --external [default: HOST; localhost for a loopback address]",
        HelpName = "NAME",
    };

    public Option<ServiceAddresses> Ports { get; } = new("--ports")
    {
        Description = "The eight service ports: REST http,https, gRPC http,https, GraphQL http,https, SignalR http,https; auto: any free ports, chosen by the kernel and printed",
        HelpName = "P1,...,P8|auto",
        DefaultValueFactory = _ => new ServiceAddresses(),
        CustomParser = result => ValueParsers.Parse(result, ServiceAddresses.ParsePorts),
    };

    public Option<DatabaseProvider> Database { get; } = new("--database")
    {
        Description = "The services' database: sqlite (an embedded file, seeded on first use) or postgres",
        HelpName = "sqlite|postgres",
        DefaultValueFactory = _ => DatabaseProvider.Sqlite,
        CustomParser = result => ValueParsers.Parse(result, ValueParsers.ParseDatabase),
    };

    public Option<string?> ConnectionString { get; } = new("--connection-string")
    {
        Description = "SQLite \"Data Source=FILE\" or an Npgsql string \"Host=...;Username=...;Password=...;Database=...\" (alone, it says which: Data Source is SQLite)",
        HelpName = "CS",
    };

    public Option<string?> Results { get; } = new("--results")
    {
        Description = "Where the reports go [default: results/<command>-<yyyyMMdd-HHmmss> in the repository]",
        HelpName = "DIR",
    };

    public Option<bool> NoPin { get; } = new("--no-pin")
    {
        Description = "Do not pin: by default, on 2+ cores, this process runs on core 0 and the services on the others (taskset)",
    };

    public Option<bool> NoIdlePoll { get; } = new("--no-idle-poll")
    {
        Description = "Let idle cores halt as the system sets them: by default, on Linux as root, they poll for the run (/dev/cpu_dma_latency at 0 µs), " +
                      "so how fast a halted core wakes does not move the cells between rounds",
    };

    public Option<string?> ServerCpus { get; } = new("--server-cpus")
    {
        Description = "taskset CPU list for the services [default: 1 on two cores, 1-(n-1) on more]",
        HelpName = "LIST",
    };

    public Option<string?> ClientCpus { get; } = new("--client-cpus", "--driver-cpus")
    {
        Description = "CPU list for this process, the client that drives the calls [default: 0]",
        HelpName = "LIST",
    };

    public Option<bool> Http2 { get; } = new("--http2")
    {
        Description = "REST and GraphQL over HTTPS use h2 (ALPN) instead of HTTP/1.1, as gRPC does",
    };

    public Option<ConnectionPolicy> Connections { get; } = new("--connections")
    {
        Description = "reuse: warm connections kept open; new: a new connection for every request (TCP connect, TLS handshake on " +
                      "HTTPS, HTTP/2 preface), as JMeter without keep-alive [default: reuse]",
        HelpName = "reuse|new",
        CustomParser = result => ValueParsers.Parse(result, ValueParsers.ParseConnections),
    };

    public Option<Compression> Compression { get; } = new("--compression")
    {
        Description = "none; gzip or br: the services compress REST's and GraphQL's JSON responses (Accept-Encoding) and gRPC's " +
                      "messages both ways (grpc-encoding: gzip, also for br); with --external start them with --Compression:Enabled=true " +
                      "[default: none]",
        HelpName = "none|gzip|br",
        CustomParser = result => ValueParsers.Parse(result, ValueParsers.ParseCompression),
    };

    public Option<NetworkProfile> Network { get; } = new("--network")
    {
        Description = "loopback; lan-1g, lan-100m, wan or rate=R,delay=D,jitter=J,loss=L (e.g. rate=100mbit,delay=20ms,loss=0.1%): the " +
                      "services in a network namespace of their own behind a veth pair shaped by tc (htb; netem where the kernel " +
                      "has it). Needs root or CAP_NET_ADMIN, SQLite, and no --external",
        HelpName = "PROFILE",
        DefaultValueFactory = _ => NetworkProfile.Loopback,
        CustomParser = result => ValueParsers.Parse(result, NetworkProfile.Parse),
    };

    public Option<ClientStack> Client { get; } = new("--client")
    {
        Description = "dotnet, jmeter, python or node: whose client makes the calls. jmeter measures each cell in a JVM running Debian's " +
                      "JMeter (its HTTP sampler on HttpClient 4; grpc-java for gRPC, each answer printed as JSON), as Bolanowski et al. " +
                      "measured; python in a process of Debian's Python (requests for REST and GraphQL over HTTP/1.1, grpcio for gRPC), " +
                      "as Kamiński et al. measured; node in a Node.js process (undici, @grpc/grpc-js, @microsoft/signalr). Their answers are checked as the .NET client's are, and the cells a stack cannot " +
                      "make are listed in the report. The benchmark command, and the load command's paced stream [default: dotnet]",
        HelpName = "dotnet|jmeter|python|node",
        CustomParser = result => ValueParsers.Parse(result, ClientStacks.Parse),
    };

    /// <summary>
    /// Whether the command calls through other client stacks (--client): the benchmark always; the load command in its
    /// paced stream only, so it sets this from its mode and otherwise ignores a preset's stack.
    /// </summary>
    public bool CallsThroughStacks { get; set; } = true;

    public Option<PaperPreset?> As { get; } = new("--as")
    {
        Description = "A paper's set-up as far as it is known (docs/presets.md): bolanowski (100 Mbit/s LAN, a new connection per " +
                      "request, HTTP/1.1, payloads I–VII; the benchmark through JMeter; the load command's paced stream at 1/s), sliwa (virtual users, each with " +
                      "its own connections; searches and create), kaminski (get one, list 100, create; the benchmark through Python's clients). " +
                      "Options given explicitly win",
        HelpName = "PAPER",
        CustomParser = result => ValueParsers.Parse(result, PaperPreset.Parse),
    };

    public void AddTo(Command command)
    {
        foreach (var option in new Option[] { External, TlsHost, Ports, Database, ConnectionString, Results, NoPin, NoIdlePoll, ServerCpus, ClientCpus, Http2, Connections, Compression, Network, Client, As })
        {
            command.Options.Add(option);
        }
    }

    /// <summary>A connection string alone names its database: SQLite's "Data Source=FILE" (its keys only), otherwise PostgreSQL's.</summary>
    private static DatabaseProvider ProviderOf(string connection)
    {
        try
        {
            return new SqliteConnectionStringBuilder(connection).DataSource is { Length: > 0 } ? DatabaseProvider.Sqlite : DatabaseProvider.PostgreSQL;
        }
        catch (ArgumentException)
        {
            return DatabaseProvider.PostgreSQL;
        }
    }

    public MachineProbes Machine { get; init; } = MachineProbes.Real;

    /// <summary>The shared settings, checked together; throws <see cref="UsageException"/> with what to change.</summary>
    public CommonSettings Read(ParseResult result)
    {
        var connection = result.GetValue(ConnectionString);
        var databaseGiven = result.IsGiven(Database);
        var provider = !databaseGiven && connection is not null ? ProviderOf(connection) : result.GetValue(Database);
        if (provider == DatabaseProvider.PostgreSQL && string.IsNullOrWhiteSpace(connection))
        {
            throw new UsageException("--database postgres needs --connection-string \"Host=...;Username=...;Password=...;Database=protocolbench\".");
        }

        if (connection is not null)
        {
            try
            {
                _ = new DatabaseOptions { Provider = provider, ConnectionString = connection }.Describe();
            }
            catch (Exception e) when (e is InvalidOperationException or ArgumentException or FormatException)
            {
                throw new UsageException($"--connection-string for {provider}: {e.Message}");
            }
        }

        var addresses = result.GetValue(Ports)!;
        var external = result.GetValue(External);
        if (external is not null)
        {
            if (addresses.HasAnyFreePort)
            {
                throw new UsageException("--ports auto goes with services this command starts: with --external give the eight ports they listen on.");
            }

            var loopback = external is "localhost" || (IPAddress.TryParse(external, out var ip) && IPAddress.IsLoopback(ip));
            addresses = addresses with { Host = external, TlsHost = result.GetValue(TlsHost) ?? (loopback ? "localhost" : external) };
        }
        else if (result.GetResult(TlsHost) is not null)
        {
            throw new UsageException("--tls-host goes with --external: the services started here are reached as localhost.");
        }

        // A preset gives the conditions its paper measured under; an option given on the command line wins.
        var preset = result.GetValue(As);
        var presetConditions = preset?.Conditions ?? new RunConditions();
        T Condition<T>(Option<T> option, T fromPreset) =>
            preset is not null && !result.IsGiven(option) ? fromPreset : result.GetValue(option)!;
        var network = Condition(Network, presetConditions.Network);
        if (!network.IsLoopback)
        {
            if (external is not null)
            {
                throw new UsageException("--network shapes the link to services this command starts in a namespace of their own: it does not go with --external.");
            }

            if (provider == DatabaseProvider.PostgreSQL)
            {
                throw new UsageException("--network runs the services in a network namespace of their own, which cannot reach a PostgreSQL on this machine's loopback: use SQLite (the default) with --network.");
            }

            if (Machine.LinkUnavailable(network) is { } why)
            {
                throw new UsageException(why);
            }
        }

        // A stack of another language is found (and its versions read) before anything starts.
        var client = Condition(Client, presetConditions.Client);
        if (!CallsThroughStacks && client != ClientStack.Dotnet)
        {
            client = result.IsGiven(Client)
                ? throw new UsageException($"--client {client.Name()}: the load command calls through another stack in its paced stream only (the paced mode, or --as bolanowski); " +
                                           "its virtual users, rate sweep and driver check call through the .NET client. The benchmark command measures every cell through the other stacks.")
                : ClientStack.Dotnet;
        }

        var probe = client == ClientStack.Dotnet ? null : Machine.Stack(client);
        var clientVersions = probe is { Found: false } ? throw new UsageException(probe.Missing) : probe?.Versions;

        // With --external the database is the one the services already use: known only when the user says which.
        var database = external is null || databaseGiven || connection is not null
            ? new DatabaseOptions { Provider = provider, ConnectionString = connection }
            : null;
        return new CommonSettings(
            external, addresses, database, result.GetValue(Results), result.GetValue(NoPin), result.GetValue(Http2),
            result.GetValue(ServerCpus), result.GetValue(ClientCpus),
            new RunConditions
            {
                Connections = Condition(Connections, presetConditions.Connections),
                Compression = Condition(Compression, presetConditions.Compression),
                Network = network,
                Client = client,
                ClientVersions = clientVersions,
                Preset = preset?.Name,
            },
            preset)
        {
            NoIdlePoll = result.GetValue(NoIdlePoll),
        };
    }
}
