using System.Diagnostics;

namespace ProtocolBench.Shared.Domain.Data;

/// <summary>
/// Creates the schema and seeds an empty database. Three services may start at once on one database,
/// so the work runs under a cross-process lock: a lock file beside the SQLite file, or a PostgreSQL advisory lock.
/// A seeded database costs one query, the two tables' row counts, and EF Core is not started for it.
/// </summary>
public static class DatabaseInitializer
{
    private const long AdvisoryLockKey = 0x50_42_53_45_45_44; // "PBSEED"

    public static async Task<InitializationResult> InitializeAsync(
        DatabaseOptions options, IDbContextFactory<LibraryDbContext> factory, CancellationToken cancellationToken)
    {
        var watch = Stopwatch.StartNew();
        if (options.Provider == DatabaseProvider.Sqlite)
        {
            await using var fileLock = await AcquireFileLockAsync(options.SqlitePath + ".init.lock", cancellationToken);
            await CreateSqliteFileIfMissingAsync(options.EffectiveConnectionString, cancellationToken);
            await using var connection = new SqliteConnection(options.EffectiveConnectionString);
            await connection.OpenAsync(cancellationToken);
            var result = await CreateAndSeedAsync(connection, factory, watch, cancellationToken);
            await ExecuteAsync(connection, "PRAGMA journal_mode=WAL", cancellationToken);
            return result;
        }

        await using var postgres = await OpenPostgresAsync(options.EffectiveConnectionString, cancellationToken);
        await AcquireAdvisoryLockAsync(postgres, cancellationToken);
        try
        {
            return await CreateAndSeedAsync(postgres, factory, watch, cancellationToken);
        }
        finally
        {
            await ExecuteAsync(postgres, $"SELECT pg_advisory_unlock({AdvisoryLockKey})", CancellationToken.None);
        }
    }

    private static async Task<InitializationResult> CreateAndSeedAsync(
        DbConnection connection, IDbContextFactory<LibraryDbContext> factory, Stopwatch watch, CancellationToken cancellationToken)
    {
        var open = watch.Elapsed;
        var counts = await CountRowsAsync(connection, cancellationToken);
        var check = watch.Elapsed - open;
        if (counts is { Authors: > 0 })
        {
            return new InitializationResult(false, counts.Value.Authors, counts.Value.Books, open, check, TimeSpan.Zero, TimeSpan.Zero);
        }

        if (counts is null)
        {
            await using var db = await factory.CreateDbContextAsync(cancellationToken);
            await db.Database.EnsureCreatedAsync(cancellationToken);
        }

        var schema = watch.Elapsed - open - check;
        await LibrarySeed.WriteAsync(connection, cancellationToken);
        var seeded = await CountRowsAsync(connection, cancellationToken)
            ?? throw new InvalidOperationException("The tables are gone right after they were seeded.");
        return new InitializationResult(true, seeded.Authors, seeded.Books, open, check, schema, watch.Elapsed - open - check - schema);
    }

    /// <summary>The number of authors and books, or null when the tables do not exist yet (a new database).</summary>
    private static async Task<(int Authors, int Books)?> CountRowsAsync(DbConnection connection, CancellationToken cancellationToken)
    {
        await using var command = connection.CreateCommand();
        command.CommandText = "SELECT (SELECT count(*) FROM authors), (SELECT count(*) FROM books)";
        try
        {
            await using var reader = await command.ExecuteReaderAsync(cancellationToken);
            await reader.ReadAsync(cancellationToken);
            return (Convert.ToInt32(reader.GetValue(0)), Convert.ToInt32(reader.GetValue(1)));
        }
        catch (Exception e) when (e is SqliteException { SqliteErrorCode: 1 } or PostgresException { SqlState: PostgresErrorCodes.UndefinedTable })
        {
            return null; // SQLite's "no such table" (SQLITE_ERROR), PostgreSQL's undefined_table.
        }
    }

    private static async Task<object?> ExecuteAsync(DbConnection connection, string sql, CancellationToken cancellationToken)
    {
        await using var command = connection.CreateCommand();
        command.CommandText = sql;
        return await command.ExecuteScalarAsync(cancellationToken);
    }

    /// <summary>The services open the file read-write without creating it (<see cref="DatabaseOptions"/>); this is where it is created.</summary>
    private static async Task CreateSqliteFileIfMissingAsync(string connectionString, CancellationToken cancellationToken)
    {
        var create = new SqliteConnectionStringBuilder(connectionString) { Mode = SqliteOpenMode.ReadWriteCreate, Pooling = false };
        await using var connection = new SqliteConnection(create.ToString());
        await connection.OpenAsync(cancellationToken);
    }

    /// <summary>
    /// A connection to the database, created first if it does not exist (the advisory lock needs a connection to the
    /// database itself). The usual case, an existing database, opens one connection.
    /// </summary>
    private static async Task<NpgsqlConnection> OpenPostgresAsync(string connectionString, CancellationToken cancellationToken)
    {
        var connection = new NpgsqlConnection(connectionString);
        try
        {
            await connection.OpenAsync(cancellationToken);
            return connection;
        }
        catch (PostgresException e) when (e.SqlState == PostgresErrorCodes.InvalidCatalogName)
        {
            await connection.DisposeAsync();
        }

        await CreatePostgresDatabaseAsync(connectionString, cancellationToken);
        connection = new NpgsqlConnection(connectionString);
        await connection.OpenAsync(cancellationToken);
        return connection;
    }

    private static async Task CreatePostgresDatabaseAsync(string connectionString, CancellationToken cancellationToken)
    {
        var target = new NpgsqlConnectionStringBuilder(connectionString);
        var admin = new NpgsqlConnectionStringBuilder(connectionString) { Database = "postgres", Pooling = false };
        await using var connection = new NpgsqlConnection(admin.ConnectionString);
        await connection.OpenAsync(cancellationToken);
        try
        {
            var name = new NpgsqlCommandBuilder().QuoteIdentifier(target.Database!);
            await ExecuteAsync(connection, $"CREATE DATABASE {name}", cancellationToken);
        }
        catch (PostgresException e) when (e.SqlState is PostgresErrorCodes.DuplicateDatabase or PostgresErrorCodes.UniqueViolation)
        {
            // Another service created it at the same moment.
        }
    }

    /// <summary>Polls pg_try_advisory_lock: another service may hold it for as long as seeding takes, longer than a command timeout.</summary>
    private static async Task AcquireAdvisoryLockAsync(NpgsqlConnection connection, CancellationToken cancellationToken)
    {
        var deadline = DateTime.UtcNow.AddMinutes(5);
        while (await ExecuteAsync(connection, $"SELECT pg_try_advisory_lock({AdvisoryLockKey})", cancellationToken) is not true)
        {
            if (DateTime.UtcNow > deadline)
            {
                throw new TimeoutException("Another process held the database initialization lock for more than 5 minutes.");
            }

            await Task.Delay(200, cancellationToken);
        }
    }

    private static async Task<FileStream> AcquireFileLockAsync(string path, CancellationToken cancellationToken)
    {
        var deadline = DateTime.UtcNow.AddMinutes(5);
        while (true)
        {
            try
            {
                return new FileStream(path, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None);
            }
            catch (IOException) when (DateTime.UtcNow < deadline)
            {
                await Task.Delay(100, cancellationToken);
            }
        }
    }
}
