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

    public string RepositoryRoot { get; init; } = ProjectPaths.RootOrCurrent;

    public static string BuildConfiguration =>
        typeof(LaunchOptions).Assembly.GetCustomAttribute<AssemblyConfigurationAttribute>()?.Configuration ?? "Release";
}

public sealed class LaunchException(string message) : Exception(message);
