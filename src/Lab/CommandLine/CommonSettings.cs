using ProtocolBench.Shared.Clients;
using ProtocolBench.Shared.Domain.Data;

namespace ProtocolBench.Lab.CommandLine;

/// <summary>Where the services are and how this run reaches them: what both commands are told the same way.</summary>
public sealed record CommonSettings(
    string? External,
    ServiceAddresses Addresses,
    DatabaseOptions? Database,
    string? Results,
    bool NoPin,
    bool Http2,
    string? ServerCpus = null,
    string? ClientCpus = null)
{
    /// <summary>Where this process and the services run (--no-pin, --server-cpus, --client-cpus).</summary>
    public Pinning Pinning => Pinning.Plan(NoPin, External is not null, ClientCpus, ServerCpus);
}
