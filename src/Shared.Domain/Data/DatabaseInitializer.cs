using System.Diagnostics;
using Microsoft.Data.Sqlite;
using Microsoft.EntityFrameworkCore;
using Npgsql;

namespace ProtocolBench.Shared.Domain.Data;

public sealed record InitializationResult(bool Seeded, TimeSpan Elapsed, int Authors, int Books);

/// <summary>
/// Creates the schema and seeds an empty database. Three services may start at once on one database,
/// so the work runs under a cross-process lock: a lock file beside the SQLite file, or a PostgreSQL advisory lock.
/// </summary>
public static class DatabaseInitializer
{
    private const long AdvisoryLockKey = 0x50_42_53_45_45_44; // "PBSEED"

    public static async Task<InitializationResult> InitializeAsync(
        DatabaseOptions options, IDbContextFactory<LibraryDbContext> factory, CancellationToken cancellationToken)
    {
        await using var db = await factory.CreateDbContextAsync(cancellationToken);
        var watch = Stopwatch.StartNew();
        bool seeded;
        if (options.Provider == DatabaseProvider.Sqlite)
        {
            var file = options.SqlitePath;
            await using var fileLock = await AcquireFileLockAsync(file + ".init.lock", cancellationToken);
            await CreateSqliteFileIfMissingAsync(options.EffectiveConnectionString, cancellationToken);
            seeded = await CreateAndSeedAsync(db, cancellationToken);
            await db.Database.ExecuteSqlRawAsync("PRAGMA journal_mode=WAL;", cancellationToken);
        }
        else
        {
            await CreatePostgresDatabaseIfMissingAsync(options.EffectiveConnectionString, cancellationToken);
            await db.Database.OpenConnectionAsync(cancellationToken);
            try
            {
                await AcquireAdvisoryLockAsync(db, cancellationToken);
                seeded = await CreateAndSeedAsync(db, cancellationToken);
                await db.Database.ExecuteSqlRawAsync($"SELECT pg_advisory_unlock({AdvisoryLockKey})", cancellationToken);
            }
            finally
            {
                await db.Database.CloseConnectionAsync();
            }
        }

        var authors = await db.Authors.CountAsync(cancellationToken);
        var books = await db.Books.CountAsync(cancellationToken);
        return new InitializationResult(seeded, watch.Elapsed, authors, books);
    }

    private static async Task<bool> CreateAndSeedAsync(LibraryDbContext db, CancellationToken cancellationToken)
    {
        await db.Database.EnsureCreatedAsync(cancellationToken);
        if (!await LibrarySeed.IsEmptyAsync(db, cancellationToken))
        {
            return false;
        }

        await using var transaction = await db.Database.BeginTransactionAsync(cancellationToken);
        await LibrarySeed.SeedAsync(db, cancellationToken);
        await transaction.CommitAsync(cancellationToken);
        return true;
    }

    /// <summary>The services open the file read-write without creating it (<see cref="DatabaseOptions"/>); this is where it is created.</summary>
    private static async Task CreateSqliteFileIfMissingAsync(string connectionString, CancellationToken cancellationToken)
    {
        var create = new SqliteConnectionStringBuilder(connectionString) { Mode = SqliteOpenMode.ReadWriteCreate, Pooling = false };
        await using var connection = new SqliteConnection(create.ToString());
        await connection.OpenAsync(cancellationToken);
    }

    /// <summary>The advisory lock needs a connection to the database itself, so the database must exist first.</summary>
    private static async Task CreatePostgresDatabaseIfMissingAsync(string connectionString, CancellationToken cancellationToken)
    {
        var target = new NpgsqlConnectionStringBuilder(connectionString);
        var admin = new NpgsqlConnectionStringBuilder(connectionString) { Database = "postgres", Pooling = false };
        await using var connection = new NpgsqlConnection(admin.ConnectionString);
        await connection.OpenAsync(cancellationToken);
        await using var exists = new NpgsqlCommand("SELECT 1 FROM pg_database WHERE datname = $1", connection)
        {
            Parameters = { new NpgsqlParameter { Value = target.Database } },
        };
        if (await exists.ExecuteScalarAsync(cancellationToken) is not null)
        {
            return;
        }

        try
        {
            var name = new NpgsqlCommandBuilder().QuoteIdentifier(target.Database!);
            await using var create = new NpgsqlCommand($"CREATE DATABASE {name}", connection);
            await create.ExecuteNonQueryAsync(cancellationToken);
        }
        catch (PostgresException e) when (e.SqlState is PostgresErrorCodes.DuplicateDatabase or PostgresErrorCodes.UniqueViolation)
        {
            // Another service created it at the same moment.
        }
    }

    /// <summary>Polls pg_try_advisory_lock: another service may hold it for as long as seeding takes, longer than a command timeout.</summary>
    private static async Task AcquireAdvisoryLockAsync(LibraryDbContext db, CancellationToken cancellationToken)
    {
        var deadline = DateTime.UtcNow.AddMinutes(5);
        while (!await db.Database.SqlQueryRaw<bool>($"SELECT pg_try_advisory_lock({AdvisoryLockKey}) AS \"Value\"").SingleAsync(cancellationToken))
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
