namespace ProtocolBench.GraphQL.Api.Authors;

/// <summary>createAuthor, updateAuthor, deleteAuthor: the domain validates name and country before any write.</summary>
internal static class AuthorMutations
{
    public static ObjectGraphType AddAuthorMutations(this ObjectGraphType mutation, IDbContextFactory<LibraryDbContext> factory)
    {
        mutation.Field<AuthorType, AuthorDto>("createAuthor")
            .Answers(Operation.CreateAuthor)
            .Description("Creates an author (name 1–200, country 1–100 characters, no control characters) and returns it with its new id.")
            .Argument<StringGraphType>("name")
            .Argument<StringGraphType>("country")
            .WithComplexityImpact(Cost.DatabaseCall, 1)
            .ResolveWithLibraryDb(factory, (db, context) => db.CreateAsync(Input(context), context.CancellationToken));

        mutation.Field<AuthorType, AuthorDto>("updateAuthor")
            .Answers(Operation.UpdateAuthor)
            .Description("Replaces an author's name and country; returns the author with its books.")
            .Argument<NonNullGraphType<IntGraphType>>("id")
            .Argument<StringGraphType>("name")
            .Argument<StringGraphType>("country")
            .WithComplexityImpact(Cost.DatabaseCall, 1)
            .ResolveWithLibraryDb(factory, (db, context) => db.UpdateAsync(context.GetArgument<int>("id"), Input(context), context.CancellationToken));

        mutation.Field<BooleanGraphType, bool>("deleteAuthor")
            .Answers(Operation.DeleteAuthor)
            .Description("Deletes an author and its books; true when deleted, null and NOT_FOUND when there was no such author.")
            .Argument<NonNullGraphType<IntGraphType>>("id")
            .WithComplexityImpact(Cost.DatabaseCall, 1)
            .ResolveWithLibraryDb(factory, async (db, context) =>
            {
                await db.DeleteAsync(context.GetArgument<int>("id"), context.CancellationToken);
                return true;
            });

        return mutation;
    }

    private static AuthorInput Input(IResolveFieldContext context) =>
        new(context.GetArgument<string?>("name"), context.GetArgument<string?>("country"));
}
