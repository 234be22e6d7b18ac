using ProtocolBench.Shared.Clients;

namespace ProtocolBench.Lab;

/// <summary>
/// The conditions a run measures under, the same options in both commands: what the papers differ in and what can flip
/// a verdict. Saved with every run so that <c>compare</c> can say which conditions two runs differ in.
/// </summary>
public sealed record Conditions
{
    /// <summary>--connections: reuse warm connections (the default) or open a new one for every request.</summary>
    public ConnectionPolicy Connections { get; init; } = ConnectionPolicy.Reuse;

    /// <summary>The rows of the setup table, one per condition.</summary>
    public IEnumerable<(string Name, string Value)> Describe()
    {
        yield return ("Connections", Connections == ConnectionPolicy.New
            ? "new for every request (--connections new): TCP connect, TLS handshake on HTTPS and the HTTP/2 preface each time; " +
              "HTTP/1.1 requests say Connection: close"
            : "reused (--connections reuse): warm connections kept open, HTTP/1.1 keep-alive and one HTTP/2 connection per client");
    }

    /// <summary>How the conditions of <paramref name="other"/> differ from these, one phrase each; empty when they are the same.</summary>
    public IReadOnlyList<string> DifferencesFrom(Conditions other)
    {
        var differences = new List<string>();
        if (Connections != other.Connections)
        {
            differences.Add($"connections {Name(Connections)} against {Name(other.Connections)}");
        }

        return differences;
    }

    public static string Name(ConnectionPolicy policy) => policy.ToString().ToLowerInvariant();

    public static ConnectionPolicy ParseConnections(string value) => value.ToLowerInvariant() switch
    {
        "reuse" => ConnectionPolicy.Reuse,
        "new" => ConnectionPolicy.New,
        _ => throw new FormatException($"'{value}' is not a connection policy: reuse or new"),
    };
}
