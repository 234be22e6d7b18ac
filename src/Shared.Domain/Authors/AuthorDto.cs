namespace ProtocolBench.Shared.Domain.Authors;

/// <summary>What every protocol returns for an author: the same fields, books ordered by id.</summary>
public sealed record AuthorDto(int Id, string Name, string Country, IReadOnlyList<BookDto> Books)
{
    public bool Equals(AuthorDto? other) =>
        other is not null && Id == other.Id && Name == other.Name && Country == other.Country && Books.SequenceEqual(other.Books);

    public override int GetHashCode() => HashCode.Combine(Id, Name, Country, Books.Count);
}

public sealed record BookDto(int Id, int AuthorId, string Title, int Year);

public sealed record AuthorInput(string? Name, string? Country);

public static class AuthorMapping
{
    public static AuthorDto ToDto(this Author author) => new(
        author.Id,
        author.Name,
        author.Country,
        author.Books.OrderBy(b => b.Id).Select(b => new BookDto(b.Id, b.AuthorId, b.Title, b.Year)).ToList());
}
