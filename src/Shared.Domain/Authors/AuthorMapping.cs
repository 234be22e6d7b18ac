namespace ProtocolBench.Shared.Domain.Authors;

public static class AuthorMapping
{
    public static AuthorDto ToDto(this Author author) => new(
        author.Id,
        author.Name,
        author.Country,
        author.Books.OrderBy(b => b.Id).Select(b => new BookDto(b.Id, b.AuthorId, b.Title, b.Year)).ToList());
}
