using ProtocolBench.Lab.Network;

namespace ProtocolBench.Lab.Conditions;

/// <summary>
/// The conditions a run measures under, the same options in both commands: what the papers differ in and what can flip
/// a verdict. Saved with every run so that <c>compare</c> can say which conditions two runs differ in.
/// </summary>
public sealed record RunConditions
{
    /// <summary>--as: the paper whose set-up the run reproduces, or null.</summary>
    public string? Preset { get; init; }

    /// <summary>--connections: reuse warm connections (the default) or open a new one for every request.</summary>
    public ConnectionPolicy Connections { get; init; } = ConnectionPolicy.Reuse;

    /// <summary>--compression: none (the default), gzip or br for REST's and GraphQL's responses; gRPC gzip both ways unless none.</summary>
    public Compression Compression { get; init; } = Compression.None;

    /// <summary>--network: loopback (the default) or a shaped link to the services' own network namespace.</summary>
    public NetworkProfile Network { get; init; } = NetworkProfile.Loopback;

    /// <summary>--client: whose client makes the benchmark's calls (this project's .NET client by default).</summary>
    public ClientStack Client { get; init; } = ClientStack.Dotnet;

    /// <summary>The client stack's versions as read when the run started (<see cref="ClientStacks.Probe"/>).</summary>
    public string? ClientVersions { get; init; }

    /// <summary>The link as it was made (<see cref="ShapedLink.Describe"/>): what was shaped and what could not be emulated.</summary>
    public string? NetworkLink { get; init; }

    /// <summary>"lan-100m, new connections, no compression (--as bolanowski)": the conditions in one line.</summary>
    public string Summary =>
        $"{Network.Name}, {(Connections == ConnectionPolicy.New ? "new" : "reused")} connections, " +
        $"{(Compression == Compression.None ? "no" : Name(Compression))} compression" +
        (Client == ClientStack.Dotnet ? "" : $", {Client.Name()} client") +
        (Preset is null ? "" : $" (--as {Preset})");

    /// <summary>What the services this run starts must be told ("--Key=Value" settings).</summary>
    public IReadOnlyDictionary<string, string> ServiceSettings => Compression == Compression.None
        ? new Dictionary<string, string>()
        : new Dictionary<string, string> { ["Compression:Enabled"] = "true" };

    /// <summary>The rows of the setup table, one per condition.</summary>
    public IEnumerable<(string Name, string Value)> Describe()
    {
        if (Preset is not null)
        {
            yield return ("Preset", PaperPreset.All.FirstOrDefault(p => p.Name == Preset)?.Describe() ?? Preset);
        }

        yield return ("Client", ClientStacks.Describe(Client, ClientVersions));
        yield return ("Network", NetworkLink ?? Network.Describe());
        yield return ("Connections", Connections == ConnectionPolicy.New
            ? "new for every request (--connections new): TCP connect, TLS handshake on HTTPS and the HTTP/2 preface each time; " +
              "HTTP/1.1 requests say Connection: close"
            : "reused (--connections reuse): warm connections kept open, HTTP/1.1 keep-alive and one HTTP/2 connection per client");
        yield return ("Compression", Compression switch
        {
            Compression.None => "none (--compression none): no Accept-Encoding, gRPC accepts identity only",
            _ => $"{Name(Compression)} (--compression {Name(Compression)}): the services compress at the optimal level (gzip 6, Brotli 4); REST and GraphQL " +
                 $"JSON responses by Accept-Encoding: {Name(Compression)}; gRPC messages both ways by grpc-encoding: gzip " +
                 (Compression == Compression.Brotli ? "(gRPC has no Brotli); " : "; ") +
                 "the transport floor (GET /baseline) asks for none",
        });
    }

    /// <summary>How the conditions of <paramref name="other"/> differ from these, one phrase each; empty when they are the same.</summary>
    public IReadOnlyList<string> DifferencesFrom(RunConditions other)
    {
        var differences = new List<string>();
        if (Preset != other.Preset)
        {
            differences.Add($"preset {Preset ?? "none"} against {other.Preset ?? "none"}");
        }

        if (Client != other.Client)
        {
            differences.Add($"client {Client.Name()} against {other.Client.Name()}");
        }

        if (Connections != other.Connections)
        {
            differences.Add($"connections {Name(Connections)} against {Name(other.Connections)}");
        }

        if (Network.Name != other.Network.Name)
        {
            differences.Add($"network {Network.Name} against {other.Network.Name}");
        }

        if (Compression != other.Compression)
        {
            differences.Add($"compression {Name(Compression)} against {Name(other.Compression)}");
        }

        return differences;
    }

    public static string Name(ConnectionPolicy policy) => policy.ToString().ToLowerInvariant();

    public static string Name(Compression compression) => compression == Compression.Brotli ? "br" : compression.ToString().ToLowerInvariant();
}
