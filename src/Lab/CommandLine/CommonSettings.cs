using ProtocolBench.Lab.Conditions;
using ProtocolBench.Lab.Runs;

namespace ProtocolBench.Lab.CommandLine;

/// <summary>Where the services are and how this run reaches them: what both commands are told the same way.</summary>
public sealed record CommonSettings(
    string? External,
    ServiceAddresses Addresses,
    DatabaseOptions? Database,
    string? Results,
    bool NoPin,
    bool Http2,
    string? ServerCpus,
    string? ClientCpus,
    RunConditions Conditions,
    PaperPreset? Preset = null)
{
    /// <summary>How the clients reach <paramref name="addresses"/> under these settings; a command adds its own limits.</summary>
    public ClientOptions ClientOptions(ServiceAddresses addresses) => new()
    {
        Addresses = addresses,
        TrustedCertificatePath = ProjectPaths.TrustedCertificate,
        HttpsUsesHttp2ForRestAndGraphQL = Http2,
        Connections = Conditions.Connections,
        Compression = Conditions.Compression,
    };

    /// <summary>The HTTP version of each protocol on each transport, as both reports state it.</summary>
    public string HttpVersions => (Http2
        ? "REST and GraphQL: HTTP/1.1 over HTTP, h2 over HTTPS (--http2); gRPC: h2c (prior knowledge) over HTTP, h2 over HTTPS"
        : "REST and GraphQL: HTTP/1.1 on both transports, as the paper; gRPC: h2c (prior knowledge) over HTTP, h2 over HTTPS") +
        "; SignalR: a WebSocket (HTTP/1.1 upgrade) on both transports, with the JSON hub protocol (SignalR) and MessagePack (SignalR MessagePack)";

    /// <summary>Idle cores halt as the system sets them instead of polling for the run (<see cref="CpuIdle"/>).</summary>
    public bool NoIdlePoll { get; init; }

    /// <summary>Where this process and the services run (--no-pin, --server-cpus, --client-cpus).</summary>
    public Pinning Pinning => Pinning.Plan(NoPin, External is not null, ClientCpus, ServerCpus);
}
