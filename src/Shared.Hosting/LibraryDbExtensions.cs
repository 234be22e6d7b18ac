using System.Data.Common;
using Microsoft.AspNetCore.Builder;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using ProtocolBench.Shared.Domain;
using ProtocolBench.Shared.Domain.Authors;
using ProtocolBench.Shared.Domain.Data;
using ProtocolBench.Shared.Domain.Payloads;

namespace ProtocolBench.Shared.Hosting;

public static class LibraryDbExtensions
{
    /// <summary>One pooled DbContext factory per service; handlers get a scoped context, GraphQL resolvers may create their own.</summary>
    public static IHostApplicationBuilder AddLibraryDb(this IHostApplicationBuilder builder)
    {
        builder.Services.AddOptions<DatabaseOptions>()
            .BindConfiguration(DatabaseOptions.Section)
            .Validate(
                o => o.Provider == DatabaseProvider.Sqlite || !string.IsNullOrWhiteSpace(o.ConnectionString),
                "Database:Provider is PostgreSQL but Database:ConnectionString is empty.")
            .Validate(o => o.CommandTimeoutSeconds is > 0 and <= 300, "Database:CommandTimeoutSeconds must be 1..300.")
            .Validate(
                o => o.CommandTimeoutSeconds < ServiceDefaults.RequestTimeout(builder.Configuration).TotalSeconds,
                "Database:CommandTimeoutSeconds must be shorter than Requests:TimeoutSeconds, so that a database that does " +
                "not answer gets UNAVAILABLE on every protocol rather than the request timeout's 504.")
            .ValidateOnStart();
        builder.Services.AddPooledDbContextFactory<LibraryDbContext>(
            (services, options) => services.GetRequiredService<IOptions<DatabaseOptions>>().Value.Configure(options));
        builder.Services.AddScoped(services =>
            services.GetRequiredService<IDbContextFactory<LibraryDbContext>>().CreateDbContext());
        builder.Services.AddHealthChecks()
            .AddCheck<DatabaseHealthCheck>("database", tags: ["ready"]);
        return builder;
    }

    /// <summary>The payload files, read once at start, their health check, and the loopback sender of their bytes (off unless Endpoints:SenderPort is set).</summary>
    public static IHostApplicationBuilder AddPayloadFiles(this IHostApplicationBuilder builder)
    {
        builder.Services.AddSingleton(_ => PayloadFiles.Load(builder.Configuration["Payloads:Directory"]));
        builder.Services.AddSingleton<LoopbackSender>();
        builder.Services.AddHostedService(services => services.GetRequiredService<LoopbackSender>());
        builder.Services.AddHealthChecks()
            .AddCheck<PayloadFilesHealthCheck>("payload-files", tags: ["ready"]);
        return builder;
    }

    /// <summary>Creates and seeds the database before the service accepts a request, and logs how long it took.</summary>
    public static async Task InitializeLibraryDbAsync(this WebApplication app, CancellationToken cancellationToken = default)
    {
        var options = app.Services.GetRequiredService<IOptions<DatabaseOptions>>().Value;
        var factory = app.Services.GetRequiredService<IDbContextFactory<LibraryDbContext>>();
        var log = app.Services.GetRequiredService<ILoggerFactory>().CreateLogger("ProtocolBench.Database");
        var result = await DatabaseInitializer.InitializeAsync(options, factory, cancellationToken);

        // EF Core starts here (its services, the pooled context, a read on its connection), before the service listens:
        // otherwise the first health check pays it, and on a busy machine that outlasts the launcher's one-second probe.
        var watch = System.Diagnostics.Stopwatch.StartNew();
        await using (var db = await factory.CreateDbContextAsync(cancellationToken))
        {
            await db.AnyAuthorsAsync(cancellationToken);
        }

        log.LogInformation(
            "{Database}: {Action} in {Elapsed:F0} ms (open {Open:F0} ms, check {Check:F0} ms, schema {Schema:F0} ms, rows {Rows:F0} ms); {Authors} authors, {Books} books; EF Core ready in {Ready:F0} ms",
            options.Describe(),
            result.Seeded ? "created and seeded" : "already seeded, checked",
            result.Elapsed.TotalMilliseconds,
            result.Open.TotalMilliseconds,
            result.Check.TotalMilliseconds,
            result.Schema.TotalMilliseconds,
            result.Rows.TotalMilliseconds,
            result.Authors,
            result.Books,
            watch.Elapsed.TotalMilliseconds);
    }

    /// <summary>
    /// Turns any exception into the error clients see: domain errors as they are, database faults as UNAVAILABLE,
    /// anything else as null (an internal error, reported without details). The whole chain is searched: EF Core and
    /// the providers wrap the database's own exception (DbUpdateException, InvalidOperationException, NpgsqlException
    /// around a TimeoutException or an IOException), and every failure of the database, on a read or a write, a
    /// terminated backend, a lock or busy timeout, a file gone or read-only, is the same UNAVAILABLE.
    /// </summary>
    public static DomainException? ToClientError(this Exception exception)
    {
        for (var e = exception; e is not null; e = e.InnerException)
        {
            switch (e)
            {
                case DomainException domain:
                    return domain;
                case DbException or TimeoutException:
                    return DatabaseUnavailable();
            }
        }

        return null;
    }

    private static DomainException DatabaseUnavailable() =>
        new(ErrorCode.Unavailable, "database", "The database is not available right now; try again later.");
}

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

internal sealed class PayloadFilesHealthCheck(PayloadFiles files) : IHealthCheck
{
    public Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken cancellationToken = default) =>
        Task.FromResult(files.IsAvailable ? HealthCheckResult.Healthy() : HealthCheckResult.Unhealthy(files.Error));
}
