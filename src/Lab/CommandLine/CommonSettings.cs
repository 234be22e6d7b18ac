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
    bool Http2);
