using System.Data.Common;
using Microsoft.EntityFrameworkCore;
using ProtocolBench.Shared.Domain.Authors;

namespace ProtocolBench.Shared.Hosting.Health;

/// <summary>
/// Healthy when the database answers and has authors. For SQLite also: the file is at its path, it is the file the
/// pool has open (a moved file fails the pooled query, see <see cref="SqliteFileGuard"/>), and it is writable.
/// </summary>
internal sealed class DatabaseHealthCheck(IDbContextFactory<LibraryDbContext> factory, IOptions<DatabaseOptions> options) : IHealthCheck
{
    public async Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken cancellationToken = default)
    {
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(TimeSpan.FromSeconds(3));
        try
        {
            if (options.Value.Provider == DatabaseProvider.Sqlite && SqliteFileProblem() is { } problem)
            {
                return HealthCheckResult.Unhealthy(problem);
            }

            await using var db = await factory.CreateDbContextAsync(timeout.Token);
            var any = await db.AnyAuthorsAsync(timeout.Token);
            return any ? HealthCheckResult.Healthy() : HealthCheckResult.Unhealthy("The database has no authors.");
        }
        catch (Exception e) when (e is DbException or TimeoutException or OperationCanceledException or InvalidOperationException)
        {
            return HealthCheckResult.Unhealthy($"Database not reachable: {e.GetType().Name}");
        }
    }

    /// <summary>
    /// What the pooled connections cannot show: they keep a deleted file open, and a writable handle on a protected one.
    /// The file is looked at, never opened: closing a second handle on it would drop the locks SQLite holds.
    /// </summary>
    private string? SqliteFileProblem()
    {
        var path = options.Value.SqlitePath;
        if (!File.Exists(path))
        {
            return $"The database file {path} is missing.";
        }

        return SqliteFileGuard.IsWritable(path) ? null : $"The database file {path} is read-only.";
    }
}
