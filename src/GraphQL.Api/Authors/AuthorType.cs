namespace ProtocolBench.GraphQL.Api.Authors;

/// <summary>The domain's <see cref="AuthorDto"/> as it is: the same fields REST and gRPC return.</summary>
public sealed class AuthorType : RecordType<AuthorDto>
{
    public AuthorType()
    {
        var books = GetField(nameof(AuthorDto.Books))!;
        books.Description = "Ordered by id; loaded with the author in the same single SQL query (no N+1).";
        books.WithComplexityImpact(fieldImpact: 1, childImpactMultiplier: Cost.BooksPerAuthor);
    }
}
