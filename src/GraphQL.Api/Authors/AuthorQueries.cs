namespace ProtocolBench.GraphQL.Api.Authors;

/// <summary>
/// searchAuthors, authors, author: each calls the one implementation in Shared.Domain.
/// Every root resolver has a DbContext of its own (<see cref="LibraryDbResolver"/>). The domain's read loads each
/// author's books in the same single SQL statement that the other services run, so there is no N+1 and the SQL is
/// identical across the four services.
/// </summary>
internal static class AuthorQueries
{
    public static ObjectGraphType AddAuthorQueries(this ObjectGraphType query, IDbContextFactory<LibraryDbContext> factory)
    {
        // Arguments are nullable where the domain validates them, so a missing value gets the domain's message.
        query.Field<ListGraphType<NonNullGraphType<AuthorType>>, IReadOnlyList<AuthorDto>>("searchAuthors")
            .Answers(Operation.SearchAuthors)
            .Description($"Authors whose name contains the phrase (ordinal, case-sensitive), ordered by id. limit: 1–{Limits.SearchLimitMax}, default {Limits.SearchLimitMax}.")
            .Argument<StringGraphType>("phrase")
            .Argument<IntGraphType>("limit")
            .WithComplexityImpact(c => Cost.DatabaseList(c, "limit", Limits.SearchLimitMax, Limits.SearchLimitMax))
            .ResolveWithLibraryDb(factory, (db, context) => db.SearchAsync(context.GetArgument<string?>("phrase"), context.GetArgument<int?>("limit"), context.CancellationToken));

        query.Field<ListGraphType<NonNullGraphType<AuthorType>>, IReadOnlyList<AuthorDto>>("authors")
            .Answers(Operation.ListAuthors)
            .Description($"A page of authors ordered by id. skip ≥ 0 (default 0); take 1–{Limits.ListTakeMax} (default {Limits.ListTakeDefault}).")
            .Argument<IntGraphType>("skip")
            .Argument<IntGraphType>("take")
            .WithComplexityImpact(c => Cost.DatabaseList(c, "take", Limits.ListTakeDefault, Limits.ListTakeMax))
            .ResolveWithLibraryDb(factory, (db, context) => db.ListAsync(context.GetArgument<int?>("skip"), context.GetArgument<int?>("take"), context.CancellationToken));

        query.Field<AuthorType, AuthorDto>("author")
            .Answers(Operation.GetAuthor)
            .Description("One author with its books; an unknown id gives null and an error with extensions.code NOT_FOUND.")
            .Argument<NonNullGraphType<IntGraphType>>("id")
            .WithComplexityImpact(Cost.DatabaseCall, 1)
            .ResolveWithLibraryDb(factory, (db, context) => db.GetAsync(context.GetArgument<int>("id"), context.CancellationToken));

        return query;
    }
}
