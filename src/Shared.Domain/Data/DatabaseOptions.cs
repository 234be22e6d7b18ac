namespace ProtocolBench.Shared.Domain.Data;

/// <summary>Bound from the "Database" section: <c>Database:Provider</c> and <c>Database:ConnectionString</c>.</summary>
public sealed class DatabaseOptions
{
    public const string Section = "Database";

    /// <summary>Each service's share of PostgreSQL's default max_connections (100, 3 reserved): 4 × 22 = 88.</summary>
    public const int DefaultPostgresPoolSize = 22;

    public DatabaseProvider Provider { get; set; } = DatabaseProvider.Sqlite;

    /// <summary>Empty means the embedded SQLite file at <see cref="DefaultSqlitePath"/>.</summary>
    public string? ConnectionString { get; set; }

    /// <summary>
    /// How long one database command may wait (SQLite's busy wait included) before the call answers UNAVAILABLE; shorter
    /// than the request timeout, so a database that does not answer gets the same answer on every protocol.
    /// </summary>
    public int CommandTimeoutSeconds { get; set; } = DefaultCommandTimeoutSeconds;

    public const int DefaultCommandTimeoutSeconds = 10;

    public static string DefaultSqlitePath => Path.Combine(
        Environment.GetFolderPath(Environment.SpecialFolder.LocalApplicationData, Environment.SpecialFolderOption.Create),
        "ProtocolBench",
        "protocolbench.db");

    public string EffectiveConnectionString
    {
        get
        {
            try
            {
                return Provider == DatabaseProvider.Sqlite ? SqliteConnectionString() : PostgresConnectionString();
            }
            catch (ArgumentException e)
            {
                throw new InvalidOperationException(
                    $"Database:ConnectionString \"{ConnectionString}\" is not a {(Provider == DatabaseProvider.Sqlite ? "SQLite" : "PostgreSQL")} connection string ({e.Message.TrimEnd('.')}). " +
                    (Provider == DatabaseProvider.Sqlite
                        ? "For SQLite write \"Data Source=FILE\", e.g. --Database:ConnectionString=\"Data Source=app.db\"."
                        : "For PostgreSQL write \"Host=...;Username=...;Password=...;Database=...\"."),
                    e);
            }
        }
    }

    /// <summary>What the logs and reports may show: the file, or the host and database, never a password.</summary>
    public string Describe()
    {
        if (Provider == DatabaseProvider.Sqlite)
        {
            return $"SQLite {new SqliteConnectionStringBuilder(EffectiveConnectionString).DataSource}";
        }

        var pg = new NpgsqlConnectionStringBuilder(EffectiveConnectionString);
        return $"PostgreSQL {pg.Host}:{pg.Port}/{pg.Database} (pool {pg.MaxPoolSize})";
    }

    /// <summary>The context options for this database, for a context or a factory outside a service's container.</summary>
    public DbContextOptions<LibraryDbContext> ContextOptions()
    {
        var builder = new DbContextOptionsBuilder<LibraryDbContext>();
        Configure(builder);
        return builder.Options;
    }

    public void Configure(DbContextOptionsBuilder options)
    {
        if (Provider == DatabaseProvider.Sqlite)
        {
            options.UseSqlite(EffectiveConnectionString, o => o.CommandTimeout(CommandTimeoutSeconds));
            options.AddInterceptors(SqliteFileGuard.Instance);
        }
        else
        {
            options.UseNpgsql(EffectiveConnectionString, o => o.CommandTimeout(CommandTimeoutSeconds));
        }

        options.UseQueryTrackingBehavior(QueryTrackingBehavior.NoTracking);
    }

    private string SqliteConnectionString()
    {
        var builder = new SqliteConnectionStringBuilder(string.IsNullOrWhiteSpace(ConnectionString)
            ? $"Data Source={DefaultSqlitePath}"
            : ConnectionString)
        {
            DefaultTimeout = CommandTimeoutSeconds,
            Pooling = true,
        };
        if (builder.Mode == SqliteOpenMode.ReadWriteCreate)
        {
            // A file deleted under a running service must not come back empty: only the initializer creates it.
            builder.Mode = SqliteOpenMode.ReadWrite;
        }

        var directory = Path.GetDirectoryName(Path.GetFullPath(builder.DataSource));
        if (directory is not null)
        {
            Directory.CreateDirectory(directory);
        }

        return builder.ToString();
    }

    /// <summary>The SQLite file, resolved to a full path.</summary>
    public string SqlitePath => Path.GetFullPath(new SqliteConnectionStringBuilder(EffectiveConnectionString).DataSource);

    private string PostgresConnectionString()
    {
        if (string.IsNullOrWhiteSpace(ConnectionString))
        {
            throw new InvalidOperationException(
                "Database:Provider is PostgreSQL but Database:ConnectionString is empty. " +
                "Set it, e.g. Database__ConnectionString=\"Host=127.0.0.1;Username=postgres;Password=...;Database=protocolbench\".");
        }

        var builder = new NpgsqlConnectionStringBuilder(ConnectionString);
        if (!ConnectionString.Contains("Pool Size", StringComparison.OrdinalIgnoreCase))
        {
            builder.MaxPoolSize = DefaultPostgresPoolSize;
        }

        if (!ConnectionString.Contains("Timeout", StringComparison.OrdinalIgnoreCase))
        {
            builder.Timeout = 5;
        }

        builder.CommandTimeout = CommandTimeoutSeconds;
        return builder.ToString();
    }
}
