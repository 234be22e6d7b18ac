namespace ProtocolBench.Lab.Services;

/// <summary>One of the four services: its project folder and the protocol it serves.</summary>
public sealed record ServiceSpec(string Name, Protocol Protocol)
{
    public static readonly IReadOnlyList<ServiceSpec> All =
    [
        new("Rest.Api", Protocol.Rest),
        new("Grpc.Service", Protocol.Grpc),
        new("GraphQL.Api", Protocol.GraphQL),
        new("SignalR.Api", Protocol.SignalR),
    ];

    /// <summary>The services that answer <paramref name="protocols"/>: one for both of SignalR's hub protocols.</summary>
    public static IReadOnlyList<ServiceSpec> Serving(IEnumerable<Protocol> protocols) =>
        [.. All.Where(s => protocols.Any(p => p.Service() == s.Protocol))];

    public string AssemblyFileName => $"ProtocolBench.{Name}.dll";

    /// <summary>src/{Name}/bin/{configuration}/net10.0/ProtocolBench.{Name}.dll in the repository.</summary>
    public string AssemblyPath(string root, string configuration) =>
        Path.Combine(root, "src", Name, "bin", configuration, "net10.0", AssemblyFileName);
}
