namespace ProtocolBench.Shared.Clients;

/// <summary>How a client treats its connections between requests (--connections).</summary>
public enum ConnectionPolicy
{
    /// <summary>Keep connections open and send every request on a warm one: HTTP/1.1 keep-alive, one HTTP/2 connection.</summary>
    Reuse,

    /// <summary>
    /// A new TCP connection, with its TLS handshake on HTTPS and its HTTP/2 preface, for every request; each is closed after
    /// its response, as JMeter does without keep-alive.
    /// </summary>
    New,
}
