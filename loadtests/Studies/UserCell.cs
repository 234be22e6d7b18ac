namespace ProtocolBench.LoadTests.Studies;

/// <summary>One cell of the virtual-user study (scenario, protocol, transport, users): throughput, latency, bytes, tally and nothing-lost check.</summary>
public sealed record UserCell(
    Scenario Scenario,
    Protocol Protocol,
    Transport Transport,
    int Users,
    int RequestsPerUser,
    /// <summary>The warm connections the users held; with --connections new, the connections the cell opened (one per request).</summary>
    int Connections,
    string Status,
    double ElapsedSeconds,
    double RequestsPerSecond,
    Latency Latency,
    /// <summary>At the client's sockets; null where they were not read (the users were Locust's).</summary>
    long? BytesSent,
    long? BytesReceived,
    TallySummary Requests,
    TallySummary Warmup,
    NothingLostResult? NothingLost,
    /// <summary>What each request cost the service (and the client), over the measured requests; null when the service's meter could not be read.</summary>
    CostPerOp? Cost = null,
    /// <summary>The resident memory of the service at the cell's start and the most while its users were connected; null where it was not read.</summary>
    ServiceMemory? Memory = null)
{
    public const string Complete = "complete";

    public bool Measured => Requests.Issued > 0;

    public double MegabytesReceived => BytesReceived / 1e6 ?? double.NaN;

    public double MegabytesSent => BytesSent / 1e6 ?? double.NaN;

    public double KilobytesPerRequestReceived => Requests.Issued == 0 ? double.NaN : BytesReceived / 1e3 / Requests.Issued ?? double.NaN;

    public double KilobytesPerRequestSent => Requests.Issued == 0 ? double.NaN : BytesSent / 1e3 / Requests.Issued ?? double.NaN;

    public string Id => $"{Scenario.Name}-{Protocol}-{Transport}-u{Users}".ToLowerInvariant();

    public static UserCell NotRun(Scenario scenario, Protocol protocol, Transport transport, int users, int requests, string status)
    {
        var empty = new RequestTally().Summary();
        return new(scenario, protocol, transport, users, requests, 0, status, 0, 0, Latency.From(new LongHistogram(1000, 3)), 0, 0, empty, empty, null);
    }
}
