using Microsoft.EntityFrameworkCore;
using ProtocolBench.Shared.Domain.Authors;
using ProtocolBench.Shared.Hosting.Health;

namespace ProtocolBench.Shared.Hosting;

/// <summary>The database every service reads and writes: its options, its pooled contexts, its health check and its first start.</summary>
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
}
