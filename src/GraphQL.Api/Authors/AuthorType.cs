namespace ProtocolBench.GraphQL.Api.Authors;

/// <summary>The domain's <see cref="AuthorDto"/> as it is: the same fields REST and gRPC return.</summary>
public sealed class AuthorType : ObjectGraphType<AuthorDto>
{
    public AuthorType()
    {
        Name = "Author";
        Field(a => a.Id);
        Field(a => a.Name);
        Field(a => a.Country);
        Field<NonNullGraphType<ListGraphType<NonNullGraphType<RecordType<BookDto>>>>, IReadOnlyList<BookDto>>("books")
            .Description("Ordered by id; loaded with the author in the same single SQL query (no N+1).")
            .Resolve(context => context.Source.Books)
            .WithComplexityImpact(fieldImpact: 1, childImpactMultiplier: Cost.BooksPerAuthor);
    }
}
