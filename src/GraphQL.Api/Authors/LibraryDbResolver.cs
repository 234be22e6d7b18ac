using GraphQL.Builders;

namespace ProtocolBench.GraphQL.Api.Authors;

internal static class LibraryDbResolver
{
    /// <summary>
    /// Resolves a root field with a DbContext of its own from the pooled factory, disposed when the call ends: two root
    /// fields in one query run in parallel without sharing a context.
    /// </summary>
    public static FieldBuilder<object?, TReturn> ResolveWithLibraryDb<TReturn>(
        this FieldBuilder<object?, TReturn> field,
        IDbContextFactory<LibraryDbContext> factory,
        Func<LibraryDbContext, IResolveFieldContext<object?>, Task<TReturn>> resolve) =>
        field.ResolveAsync(async context =>
        {
            await using var db = await factory.CreateDbContextAsync(context.CancellationToken);
            return await resolve(db, context);
        });
}
