using System.Reflection;

namespace ProtocolBench.Lab.Services;

/// <summary>How to start the services: where they listen, which build and database, the certificate, the CPUs, the settings.</summary>
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
    /// Whether the runtime promotes hot methods to optimized code early: tiering's call-counting delay cut from 100 ms to
    /// <see cref="CallCountingDelayMs"/>. The commands ask for it: under a steady stream of requests the default delay keeps
    /// restarting and a fresh service stays slow for most of a minute; with no delay at all, the services compile
    /// their start-up code twice while starting and four of them took 10 s instead of 4 on one core
    /// (docs/methodology.md, "Warm-up after each start"). The optimized code is the same.
    /// </summary>
    public bool PromoteHotCodeEarly { get; init; }

    public const int CallCountingDelayMs = 10;

    /// <summary>
    /// Read each service's own account of its CPU time and allocations (<see cref="Costs.ServiceMeter"/>) from the moment
    /// it is healthy. The commands ask for it; the tests that check it do.
    /// </summary>
    public bool MeterServices { get; init; }

    /// <summary>A network namespace to run the services in (ip netns exec), for --network; null: this machine's own.</summary>
    public string? NetworkNamespace { get; init; }

    public string RepositoryRoot { get; init; } = ProjectPaths.RootOrCurrent;

    public static string BuildConfiguration =>
        typeof(LaunchOptions).Assembly.GetCustomAttribute<AssemblyConfigurationAttribute>()?.Configuration ?? "Release";
}
