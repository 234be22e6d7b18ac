using Npgsql;

namespace ProtocolBench.Integration.Tests.Infrastructure;

/// <summary>
/// The four services as real processes on loopback (ports the kernel chose, HTTP and HTTPS) over one database,
/// started once per test collection. Row counts are read from the database directly, never through the API under test.
/// </summary>
public abstract class ServicesFixture : IAsyncLifetime
{
    private readonly Dictionary<(Protocol, Transport), IProtocolClient> _clients = [];
    private RunningServices? _services;

    protected ServicesFixture() => ProjectCertificate.EnsureExists();

    /// <summary>Where the services listen: ports the kernel chose when they started, so no two fixtures can collide.</summary>
    public ServiceAddresses Addresses
    {
        get
        {
            EnsureAvailable();
            return Services.Addresses;
        }
    }

    public abstract DatabaseProvider Provider { get; }

    /// <summary>Why this fixture cannot run here (no PostgreSQL configured); null when it can.</summary>
    public virtual string? SkipReason => null;

    public RunningServices Services => _services ?? throw new InvalidOperationException("Services not started.");

    public ClientOptions ClientOptions
    {
        get
        {
            EnsureAvailable();
            return new ClientOptions { Addresses = Addresses, CallTimeout = TimeSpan.FromSeconds(30) };
        }
    }

    protected abstract string ConnectionString { get; }

    /// <summary>
    /// Marks the calling test skipped, with the reason, when this fixture's database is not configured; fails it, with the
    /// service's exit code and last lines, when one of the services has exited (every later test would otherwise say only
    /// "connection refused").
    /// </summary>
    public void EnsureAvailable()
    {
        Assert.SkipWhen(SkipReason is not null, SkipReason ?? "");
        if (_services?.Processes.FirstOrDefault(p => p.HasExited) is { } gone)
        {
            Assert.Fail($"{gone.Spec.Name} (pid {gone.Id}) exited with code {gone.ExitCode} while its tests ran; its last lines:\n{gone.Tail()}");
        }
    }

    public IProtocolClient Client(Protocol protocol, Transport transport)
    {
        EnsureAvailable();
        lock (_clients)
        {
            if (!_clients.TryGetValue((protocol, transport), out var client))
            {
                client = ProtocolClients.Create(protocol, transport, ClientOptions);
                _clients[(protocol, transport)] = client;
            }

            return client;
        }
    }

    /// <summary>The database the services of this fixture use.</summary>
    public DatabaseOptions Database => new() { Provider = Provider, ConnectionString = ConnectionString };

    public LibraryDbContext OpenDatabase()
    {
        EnsureAvailable();
        var builder = new DbContextOptionsBuilder<LibraryDbContext>();
        Database.Configure(builder);
        return new LibraryDbContext(builder.Options);
    }

    public async Task<(int Authors, int Books)> CountRowsAsync()
    {
        await using var db = OpenDatabase();
        return (await db.Authors.CountAsync(), await db.Books.CountAsync());
    }

    /// <summary>Posts JSON that the service must refuse with 400 before it writes anything: the rows are the same after.</summary>
    public async Task AssertRefusedWithNothingWrittenAsync(HttpClient http, string path, string json)
    {
        var before = await CountRowsAsync();
        using var content = new StringContent(json, Encoding.UTF8, "application/json");
        using var response = await http.PostAsync(path, content, Token);
        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Equal(before, await CountRowsAsync());
    }

    public async ValueTask InitializeAsync()
    {
        if (SkipReason is not null)
        {
            return;
        }

        await PrepareDatabaseAsync();
        _services = await ServiceLauncher.StartAsync(new LaunchOptions
        {
            Addresses = ServiceAddresses.AnyFree,
            Provider = Provider,
            ConnectionString = ConnectionString,
            StartupTimeout = TimeSpan.FromSeconds(180),
            Settings = Settings,
        });
    }

    /// <summary>Extra "--Key=Value" settings for every service of this fixture.</summary>
    protected virtual IReadOnlyDictionary<string, string> Settings => new Dictionary<string, string>();

    public async ValueTask DisposeAsync()
    {
        foreach (var client in _clients.Values)
        {
            await client.DisposeAsync();
        }

        if (_services is not null)
        {
            await _services.StopAsync();
        }

        await CleanUpDatabaseAsync();
        GC.SuppressFinalize(this);
    }

    protected virtual Task PrepareDatabaseAsync() => Task.CompletedTask;

    protected virtual Task CleanUpDatabaseAsync() => Task.CompletedTask;
}

public class SqliteServices : ServicesFixture
{
    private readonly string _file = Path.Combine(Path.GetTempPath(), $"protocolbench-tests-{Guid.NewGuid():N}.db");

    public override DatabaseProvider Provider => DatabaseProvider.Sqlite;

    protected override string ConnectionString => $"Data Source={_file}";

    protected override Task CleanUpDatabaseAsync()
    {
        Microsoft.Data.Sqlite.SqliteConnection.ClearAllPools();
        foreach (var path in new[] { _file, _file + "-wal", _file + "-shm", _file + ".init.lock" })
        {
            File.Delete(path);
        }

        return Task.CompletedTask;
    }
}

/// <summary>The services as --compression gzip|br starts them (Compression:Enabled), on a SQLite file of their own.</summary>
public sealed class CompressingServices : SqliteServices
{
    protected override IReadOnlyDictionary<string, string> Settings => new Lab.Conditions.RunConditions { Compression = Compression.Gzip }.ServiceSettings;
}

/// <summary>The services on a SQLite file of their own, each printing what the response budget charges (its Debug lines).</summary>
public sealed class ChargeLoggingServices : SqliteServices
{
    protected override IReadOnlyDictionary<string, string> Settings => new Dictionary<string, string>
    {
        ["Logging:LogLevel:ProtocolBench.Shared.Hosting.Budget.ResponseBudget"] = "Debug",
    };
}

/// <summary>
/// Runs when PROTOCOLBENCH_TEST_POSTGRES holds a connection string (CI always sets it); otherwise every test
/// in the PostgreSQL collection shows as skipped with the reason. The test database is dropped and re-created.
/// </summary>
public sealed class PostgresServices : ServicesFixture
{
    public const string Variable = "PROTOCOLBENCH_TEST_POSTGRES";

    private static readonly string? Configured = Environment.GetEnvironmentVariable(Variable);

    public override DatabaseProvider Provider => DatabaseProvider.PostgreSQL;

    public override string? SkipReason => string.IsNullOrWhiteSpace(Configured)
        ? $"PostgreSQL tests need {Variable}, e.g. \"Host=127.0.0.1;Username=postgres;Password=postgres;Database=protocolbench_tests\"."
        : null;

    protected override string ConnectionString => Configured ?? "";

    protected override async Task PrepareDatabaseAsync()
    {
        var target = new NpgsqlConnectionStringBuilder(ConnectionString);
        var admin = new NpgsqlConnectionStringBuilder(ConnectionString) { Database = "postgres", Pooling = false };
        await using var connection = new NpgsqlConnection(admin.ConnectionString);
        await connection.OpenAsync();
        await using var drop = new NpgsqlCommand($"DROP DATABASE IF EXISTS \"{target.Database}\" WITH (FORCE)", connection);
        await drop.ExecuteNonQueryAsync();
    }

    protected override Task CleanUpDatabaseAsync()
    {
        NpgsqlConnection.ClearAllPools();
        return Task.CompletedTask;
    }
}

[CollectionDefinition(Name)]
public sealed class SqliteCollection : ICollectionFixture<SqliteServices>
{
    public const string Name = "SQLite";
}

[CollectionDefinition(Name)]
public sealed class PostgresCollection : ICollectionFixture<PostgresServices>
{
    public const string Name = "PostgreSQL";
}
