using Microsoft.Data.Sqlite;
using Npgsql;

namespace ProtocolBench.Integration.Tests;

/// <summary>
/// Fault table rows 46–49: the SQLite file deleted, replaced or made read-only under a write load on all three
/// services. Each test starts its own services on a fresh file. The goals: every failure is UNAVAILABLE, no
/// acknowledged create is missing from the file afterwards, and writes succeed again within 5 s without a restart.
/// </summary>
public sealed class SqliteFileFaultTests : IAsyncLifetime
{
    private const double RecoveryGoalSeconds = 5;
    private readonly string _file = Path.Combine(Path.GetTempPath(), $"protocolbench-faults-{Guid.NewGuid():N}.db");
    private RunningServices? _services;

    private ServiceAddresses Addresses => _services!.Addresses;

    private DatabaseOptions Database => new() { Provider = DatabaseProvider.Sqlite, ConnectionString = $"Data Source={_file}" };

    public async ValueTask InitializeAsync() => _services = await ServiceLauncher.StartAsync(new LaunchOptions
    {
        Addresses = ServiceAddresses.AnyFree,
        Provider = DatabaseProvider.Sqlite,
        ConnectionString = $"Data Source={_file}",
        StartupTimeout = TimeSpan.FromSeconds(180),
    });

    public async ValueTask DisposeAsync()
    {
        SetImmutable(false);
        if (_services is not null)
        {
            await _services.StopAsync();
        }

        SqliteConnection.ClearAllPools();
        foreach (var path in Directory.EnumerateFiles(Path.GetDirectoryName(_file)!, Path.GetFileName(_file) + "*"))
        {
            File.Delete(path);
        }
    }

    [Fact]
    public async Task AFileDeletedWhileServingTakesNoWriteAndComesBackWhenRestored()
    {
        using var health = new HealthProbes(Addresses);
        await using var load = await WriteLoad.StartedAsync(Addresses, "del", Token);

        // The operator's backup, then the file deleted with its -wal and -shm, as SQLite requires of a deletion.
        var backupTaken = DateTime.UtcNow;
        var backup = CopyDatabase(_file + ".backup");

        DeleteWithSidecars(_file);
        var deleted = DateTime.UtcNow;
        var unhealthyAfter = await health.WaitAsync(healthy: false, within: RecoveryGoalSeconds, Token);
        await Task.Delay(2000, Token);

        // Restored the way an operator would: copied beside it, then renamed into place.
        File.Copy(backup, _file + ".restoring");
        var restoring = DateTime.UtcNow;
        File.Move(_file + ".restoring", _file);
        var restored = DateTime.UtcNow;
        var healthyAfter = await load.StopAfterRecoveryAsync(restored, health, RecoveryGoalSeconds, TimeSpan.FromSeconds(1), Token);

        // Sent and answered while there was no file: none may be acknowledged (a create sent just before the restore
        // may be answered after it, into the restored file: that one must be stored, as every create sent after the deletion).
        var gone = load.During(deleted, restoring);
        load.Report(restored, $"SQLite deleted: {gone.Count} creates sent and answered while the file was gone, {gone.Count(a => a.Acknowledged)} acknowledged; unhealthy after {unhealthyAfter:F1} s, healthy {healthyAfter:F1} s after the restore");
        load.AssertNoneAcknowledged(gone);
        Assert.Contains(gone, a => !a.Acknowledged);
        await load.AssertStoredAsync(Database, a => a.Ended < backupTaken || a.Sent >= deleted, Token);
        load.AssertRecovered(restored, RecoveryGoalSeconds);
    }

    [Fact]
    public async Task AFileReplacedWhileServingGetsEveryLaterWrite()
    {
        using var health = new HealthProbes(Addresses);
        await using var load = await WriteLoad.StartedAsync(Addresses, "rep", Token);

        // Another copy of the database, renamed over the file (its old -wal and -shm removed first, as SQLite requires).
        var replacement = CopyDatabase(_file + ".replacement");

        File.Delete(_file + "-wal");
        File.Delete(_file + "-shm");
        File.Move(replacement, _file, overwrite: true);
        var replaced = DateTime.UtcNow;
        await load.StopAfterRecoveryAsync(replaced, health, RecoveryGoalSeconds, TimeSpan.FromSeconds(1.5), Token);

        load.Report(replaced, "SQLite replaced");
        load.AssertFailuresAreUnavailable();
        // Nothing acknowledged after the replacement went into the old file.
        await load.AssertStoredAsync(Database, a => a.Sent >= replaced, Token);
        load.AssertRecovered(replaced, RecoveryGoalSeconds);
    }

    [Fact]
    public async Task AReadOnlyFileIsReportedAndWritesComeBackWhenItIsWritableAgain()
    {
        using var health = new HealthProbes(Addresses);
        await using var load = await WriteLoad.StartedAsync(Addresses, "ro", Token);

        SetImmutable(true);
        var unhealthyAfter = await health.WaitAsync(healthy: false, within: RecoveryGoalSeconds, Token);
        // More writers while the file is protected: the pools grow, and the connections they open are read-only.
        await using (var burst = new WriteLoad(Addresses, "rob", writersPerProtocol: 12))
        {
            await Task.Delay(2500, Token);
            await burst.StopAsync();
            TestContext.Current.TestOutputHelper?.WriteLine($"During the read-only spell, a burst of 12 writers per protocol: {burst.Summary()}.");
            burst.AssertFailuresAreUnavailable();
            await burst.AssertStoredAsync(Database, _ => true, Token);
        }

        SetImmutable(false);
        var writable = DateTime.UtcNow;
        await load.WaitForRecoveryAsync(writable, Token);
        var healthyAfter = await health.WaitAsync(healthy: true, within: RecoveryGoalSeconds, Token);
        // Beyond the recovery goal, long enough for every pooled connection to be taken again: none may stay read-only.
        await Task.Delay(writable.AddSeconds(RecoveryGoalSeconds + 3) - DateTime.UtcNow, Token);
        await load.StopAsync();

        load.Report(writable, $"SQLite read-only: unhealthy after {unhealthyAfter:F1} s, healthy {healthyAfter:F1} s after");
        load.AssertFailuresAreUnavailable();
        await load.AssertStoredAsync(Database, _ => true, Token);
        load.AssertRecovered(writable, RecoveryGoalSeconds);
        var late = load.Attempts.Where(a => a.Sent >= writable.AddSeconds(RecoveryGoalSeconds)).ToList();
        Assert.NotEmpty(late);
        Assert.All(late, a => Assert.True(a.Acknowledged, $"{a.Protocol} {a.Name}: {a.Code} more than {RecoveryGoalSeconds} s after the file was writable again"));
    }

    /// <summary>A consistent copy of the live database (SQLite's online backup), as an operator's backup would be.</summary>
    private string CopyDatabase(string target)
    {
        using var source = new SqliteConnection($"Data Source={_file};Mode=ReadOnly;Pooling=False");
        using var copy = new SqliteConnection($"Data Source={target};Pooling=False");
        source.Open();
        copy.Open();
        source.BackupDatabase(copy);
        return target;
    }

    private static void DeleteWithSidecars(string file)
    {
        foreach (var path in new[] { file, file + "-wal", file + "-shm" })
        {
            File.Delete(path);
        }
    }

    /// <summary>chattr +i as root (root ignores permissions), a read-only mode otherwise.</summary>
    private void SetImmutable(bool on)
    {
        if (!File.Exists(_file))
        {
            return;
        }

        if (Environment.UserName == "root")
        {
            using var chattr = Process.Start(new ProcessStartInfo("chattr", [on ? "+i" : "-i", _file]) { RedirectStandardError = true })!;
            chattr.WaitForExit(10_000);
            Assert.True(chattr.ExitCode == 0, $"chattr failed: {chattr.StandardError.ReadToEnd()}");
        }
        else if (!OperatingSystem.IsWindows())
        {
            File.SetUnixFileMode(_file, on ? UnixFileMode.UserRead | UnixFileMode.GroupRead : UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.GroupRead);
        }
    }
}

/// <summary>
/// Fault table row 50: a SQLite database locked by another process for longer than the command timeout. Every protocol
/// answers UNAVAILABLE once the busy wait ends (Database:CommandTimeoutSeconds, 10 s, before the 30 s request timeout);
/// reads go on (write-ahead log); writes succeed at once when the lock is gone.
/// </summary>
[Collection(SqliteCollection.Name)]
public sealed class SqliteLockTests(SqliteServices fixture)
{
    [Fact]
    public async Task ALockedDatabaseAnswersUnavailableOnEveryProtocolBeforeTheRequestTimeout()
    {
        var token = TestContext.Current.CancellationToken;
        await using (var locker = new SqliteConnection($"Data Source={fixture.Database.SqlitePath};Pooling=False"))
        {
            locker.Open();
            using var hold = locker.BeginTransaction(deferred: false); // BEGIN IMMEDIATE: the write lock, held
            var outcomes = await Task.WhenAll(WriteLoad.Protocols.Select(async protocol =>
            {
                var watch = Stopwatch.StartNew();
                var error = await Assert.ThrowsAsync<ProtocolClientException>(
                    () => fixture.Client(protocol, Transport.Http).CreateAuthorAsync($"locked-{protocol}", "Faults", token));
                return (protocol, error, watch.Elapsed.TotalSeconds);
            }));
            Assert.Equal(11, (await fixture.Client(Protocol.Rest, Transport.Http).SearchAuthorsAsync("Author - 1000", null, token)).Count);
            hold.Rollback();

            foreach (var (protocol, error, seconds) in outcomes)
            {
                TestContext.Current.TestOutputHelper?.WriteLine($"{protocol}: {error.Code} ({error.ProtocolStatus}) after {seconds:F1} s");
                Assert.Equal("UNAVAILABLE", error.Code);
                Assert.InRange(seconds, DatabaseOptions.DefaultCommandTimeoutSeconds - 1, DatabaseOptions.DefaultCommandTimeoutSeconds + 5);
            }

            Assert.Equal("HTTP 503", outcomes.Single(o => o.protocol == Protocol.Rest).error.ProtocolStatus);
        }

        foreach (var protocol in WriteLoad.Protocols)
        {
            var author = await fixture.Client(protocol, Transport.Http).CreateAuthorAsync($"unlocked-{protocol}", "Faults", token);
            await fixture.Client(protocol, Transport.Http).DeleteAuthorAsync(author.Id, token);
        }
    }
}

/// <summary>
/// Fault table rows 51–53 on PostgreSQL: backends terminated mid-write and a table locked past the command timeout
/// (on the collection's services), and the server stopped and started and a lock_timeout (on a private server).
/// </summary>
[Collection(PostgresCollection.Name)]
public sealed class PostgresFaultTests(PostgresServices fixture)
{
    private const double RecoveryGoalSeconds = 5;

    [Fact]
    public async Task BackendsTerminatedMidWriteAnswerUnavailableAndLoseNothingOnPostgres()
    {
        fixture.EnsureAvailable();
        await using var load = new WriteLoad(fixture.Addresses, "term");
        await Task.Delay(1000, Token);
        var terminated = 0;
        await using (var admin = AdminConnection())
        {
            await admin.OpenAsync(Token);
            for (var round = 0; round < 5; round++)
            {
                await using var kill = new NpgsqlCommand(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()", admin);
                terminated += Convert.ToInt32(await kill.ExecuteScalarAsync(Token), System.Globalization.CultureInfo.InvariantCulture);
                await Task.Delay(600, Token);
            }
        }

        var last = DateTime.UtcNow;
        await load.WaitForRecoveryAsync(last, Token);
        await Task.Delay(1000, Token);
        await load.StopAsync();
        // The rounds also ended this test process's own idle pooled connections.
        NpgsqlConnection.ClearAllPools();

        load.Report(last, $"PostgreSQL: {terminated} backends terminated in 5 rounds");
        Assert.True(terminated > 0, "No backend was terminated.");
        load.AssertFailuresAreUnavailable();
        await load.AssertStoredAsync(fixture.Database, _ => true, Token);
        load.AssertRecovered(last, RecoveryGoalSeconds);

        // No ended connection is left idle in a pool for a later call to find: as many calls at once as a pool holds all succeed.
        var searches = await Task.WhenAll(WriteLoad.Protocols.SelectMany(protocol => Enumerable.Range(0, DatabaseOptions.DefaultPostgresPoolSize)
            .Select(async _ =>
            {
                try
                {
                    return (await fixture.Client(protocol, Transport.Http).SearchAuthorsAsync("Author - 1000", null, Token)).Count == 11 ? null : $"{protocol}: wrong count";
                }
                catch (ProtocolClientException e)
                {
                    return $"{protocol}: {e.Code}";
                }
            })));
        Assert.Empty(searches.OfType<string>());
        await DeleteAsync(load.Marker);
    }

    [Fact]
    public async Task ALockedTableAnswersUnavailableOnEveryProtocolBeforeTheRequestTimeoutOnPostgres()
    {
        fixture.EnsureAvailable();
        await using (var admin = AdminConnection())
        {
            await admin.OpenAsync(Token);
            await using var hold = await admin.BeginTransactionAsync(Token);
            await new NpgsqlCommand("LOCK TABLE authors IN EXCLUSIVE MODE", admin, hold).ExecuteNonQueryAsync(Token);
            var outcomes = await CreateOnEveryProtocolAsync(fixture.ClientOptions, "pglocked");
            Assert.Equal(11, (await fixture.Client(Protocol.Rest, Transport.Http).SearchAuthorsAsync("Author - 1000", null, Token)).Count);
            await hold.RollbackAsync(Token);
            AssertUnavailable(outcomes, DatabaseOptions.DefaultCommandTimeoutSeconds - 1, DatabaseOptions.DefaultCommandTimeoutSeconds + 5);
        }

        foreach (var protocol in WriteLoad.Protocols)
        {
            var author = await fixture.Client(protocol, Transport.Http).CreateAuthorAsync($"pgunlocked-{protocol}", "Faults", Token);
            await fixture.Client(protocol, Transport.Http).DeleteAuthorAsync(author.Id, Token);
        }
    }

    [Fact]
    public async Task AServerStoppedAndStartedAndALockTimeoutOnPostgres()
    {
        fixture.EnsureAvailable();
        Assert.True(PrivatePostgres.FindBinaries(out var why) is not null, why);
        await using var server = await PrivatePostgres.CreateAsync(Token);
        var database = new DatabaseOptions
        {
            Provider = DatabaseProvider.PostgreSQL,
            ConnectionString = server.ConnectionString("protocolbench_faults", "Options=-c lock_timeout=1000"),
        };
        await using var services = await ServiceLauncher.StartAsync(new LaunchOptions
        {
            Addresses = ServiceAddresses.AnyFree,
            Provider = DatabaseProvider.PostgreSQL,
            ConnectionString = database.ConnectionString,
            StartupTimeout = TimeSpan.FromSeconds(180),
        }, cancellationToken: Token);
        var addresses = services.Addresses;
        var pids = services.Processes.Select(p => p.Id).ToList();

        // lock_timeout: the lock is refused after 1 s with 55P03, which is UNAVAILABLE like every database failure.
        await using (var admin = new NpgsqlConnection(server.ConnectionString("protocolbench_faults", "Pooling=false")))
        {
            await admin.OpenAsync(Token);
            await using var hold = await admin.BeginTransactionAsync(Token);
            await new NpgsqlCommand("LOCK TABLE authors IN EXCLUSIVE MODE", admin, hold).ExecuteNonQueryAsync(Token);
            var outcomes = await CreateOnEveryProtocolAsync(new ClientOptions { Addresses = addresses, CallTimeout = TimeSpan.FromSeconds(20) }, "lt");
            await hold.RollbackAsync(Token);
            AssertUnavailable(outcomes, 0.5, 5);
        }

        using var health = new HealthProbes(addresses);
        await using var load = await WriteLoad.StartedAsync(addresses, "stop", Token);
        await server.StopAsync(Token);
        var stopped = DateTime.UtcNow;
        var unhealthyAfter = await health.WaitAsync(healthy: false, within: RecoveryGoalSeconds, Token);
        await Task.Delay(2500, Token);
        var starting = DateTime.UtcNow;
        await server.StartAsync(Token);
        var started = DateTime.UtcNow;
        var healthyAfter = await load.StopAfterRecoveryAsync(started, health, RecoveryGoalSeconds, TimeSpan.FromSeconds(1), Token);

        // Sent and answered while the server was down (pg_ctl start returns a little after the server accepts connections).
        var down = load.During(stopped, starting);
        load.Report(started, $"PostgreSQL server stopped for {(started - stopped).TotalSeconds:F1} s: {down.Count} creates while down; unhealthy after {unhealthyAfter:F1} s, healthy {healthyAfter:F1} s after the start");
        load.AssertNoneAcknowledged(down);
        await load.AssertStoredAsync(database, _ => true, Token);
        load.AssertRecovered(started, RecoveryGoalSeconds);
        Assert.Equal(pids, services.Processes.Select(p => p.Id));
        Assert.All(services.Processes, p => Assert.False(p.HasExited));
        NpgsqlConnection.ClearAllPools();
    }

    private static async Task<(Protocol Protocol, ProtocolClientException Error, double Seconds)[]> CreateOnEveryProtocolAsync(ClientOptions options, string prefix) =>
        await Task.WhenAll(WriteLoad.Protocols.Select(async protocol =>
        {
            await using var client = ProtocolClients.Create(protocol, Transport.Http, options);
            var watch = Stopwatch.StartNew();
            var error = await Assert.ThrowsAsync<ProtocolClientException>(() => client.CreateAuthorAsync($"{prefix}-{protocol}", "Faults", Token));
            return (protocol, error, watch.Elapsed.TotalSeconds);
        }));

    private static void AssertUnavailable((Protocol Protocol, ProtocolClientException Error, double Seconds)[] outcomes, double from, double to)
    {
        foreach (var (protocol, error, seconds) in outcomes)
        {
            TestContext.Current.TestOutputHelper?.WriteLine($"{protocol}: {error.Code} ({error.ProtocolStatus}) after {seconds:F1} s");
            Assert.Equal("UNAVAILABLE", error.Code);
            Assert.InRange(seconds, from, to);
        }
    }

    /// <summary>A connection of the test's own, outside any pool, to hold a lock or end the services' backends.</summary>
    private NpgsqlConnection AdminConnection() =>
        new(new NpgsqlConnectionStringBuilder(fixture.Database.EffectiveConnectionString) { Pooling = false }.ConnectionString);

    private async Task DeleteAsync(string marker)
    {
        await using var db = fixture.OpenDatabase();
        await db.Authors.Where(a => a.Name.StartsWith(marker)).ExecuteDeleteAsync(Token);
    }
}
