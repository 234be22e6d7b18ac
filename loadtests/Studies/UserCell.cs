namespace ProtocolBench.LoadTests.Studies;

/// <summary>One cell of the virtual-user study (scenario, protocol, transport, users): throughput, latency, bytes, tally and nothing-lost check.</summary>
/// <param name="Connections">The warm connections the users held; with --connections new, the connections the cell opened (one per request).</param>
/// <param name="BytesSent">At the client's sockets; null where they were not read (the users were Locust's).</param>
/// <param name="BytesReceived">Likewise.</param>
/// <param name="Cost">What each request cost the service (and the client), over the measured requests; null when the service's meter could not be read.</param>
/// <param name="Memory">The resident memory of the service at the cell's start and the most while its users were connected; null where it was not read.</param>
public sealed record UserCell(
    Scenario Scenario,
    Protocol Protocol,
    Transport Transport,
    int Users,
    int RequestsPerUser,
    int Connections,
    string Status,
    double ElapsedSeconds,
    double RequestsPerSecond,
    Latency Latency,
    long? BytesSent,
    long? BytesReceived,
    TallySummary Requests,
    TallySummary Warmup,
    NothingLostResult? NothingLost,
    CostPerOp? Cost = null,
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
