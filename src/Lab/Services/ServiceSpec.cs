using System.Reflection;
using ProtocolBench.Shared.Clients;
using ProtocolBench.Shared.Domain;
using ProtocolBench.Shared.Domain.Data;

namespace ProtocolBench.Lab.Services;

/// <summary>One of the three services: its project folder and the protocol it serves.</summary>
public sealed record ServiceSpec(string Name, Protocol Protocol)
{
    public static readonly IReadOnlyList<ServiceSpec> All =
    [
        new("Rest.Api", Protocol.Rest),
        new("Grpc.Service", Protocol.Grpc),
        new("GraphQL.Api", Protocol.GraphQL),
    ];

    public string AssemblyFileName => $"ProtocolBench.{Name}.dll";

    /// <summary>src/{Name}/bin/{configuration}/net10.0/ProtocolBench.{Name}.dll in the repository.</summary>
    public string AssemblyPath(string root, string configuration) =>
        Path.Combine(root, "src", Name, "bin", configuration, "net10.0", AssemblyFileName);
}

public sealed record LaunchOptions
{
    public ServiceAddresses Addresses { get; init; } = new();

    /// <summary>Build configuration of the service binaries; defaults to the one this program was built with.</summary>
    public string Configuration { get; init; } = BuildConfiguration;

    public DatabaseProvider Provider { get; init; } = DatabaseProvider.Sqlite;

    /// <summary>Empty: the default SQLite file. For PostgreSQL a full Npgsql connection string.</summary>
    public string? ConnectionString { get; init; }

    /// <summary>The server certificate (.pfx); empty: certs/protocolbench.pfx.</summary>
    public string? CertificatePath { get; init; }

    /// <summary>CPU list for the service processes (taskset -c), e.g. "1"; null leaves them unpinned.</summary>
    public string? ServerCpus { get; init; }

    public TimeSpan StartupTimeout { get; init; } = TimeSpan.FromSeconds(120);

    /// <summary>Extra "--Key=Value" settings passed to every service.</summary>
    public IReadOnlyDictionary<string, string> Settings { get; init; } = new Dictionary<string, string>();

    public IReadOnlyList<ServiceSpec> Services { get; init; } = ServiceSpec.All;

    /// <summary>
    /// Whether the runtime promotes hot methods to optimized code at once (tiering's call-counting delay off). The
    /// commands ask for it: under a steady stream of requests the default 100 ms delay keeps restarting, and a fresh
    /// service ran 1.5× slower for its first ~45 s (search 111 on REST: 2.0–2.5 ms, then 1.37 ms); without it the
    /// service is steady after ~6 s, with the same optimized code (tier 1 with dynamic PGO), at ~3 s more start-up.
    /// </summary>
    public bool PromoteHotCodeAtOnce { get; init; }

    public string RepositoryRoot { get; init; } = ProjectPaths.RootOrCurrent;

    public static string BuildConfiguration =>
        typeof(LaunchOptions).Assembly.GetCustomAttribute<AssemblyConfigurationAttribute>()?.Configuration ?? "Release";
}

public sealed class LaunchException(string message) : Exception(message);
