namespace ProtocolBench.GraphQL.Api.Authors;

public sealed class BookType : ObjectGraphType<BookDto>
{
    public BookType()
    {
        Name = "Book";
        Field(b => b.Id);
        Field(b => b.AuthorId);
        Field(b => b.Title);
        Field(b => b.Year);
    }
}
