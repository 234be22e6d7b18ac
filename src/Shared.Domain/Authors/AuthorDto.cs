namespace ProtocolBench.Shared.Domain.Authors;

/// <summary>What every protocol returns for an author: the same fields, books ordered by id.</summary>
public sealed record AuthorDto(int Id, string Name, string Country, IReadOnlyList<BookDto> Books)
{
    public bool Equals(AuthorDto? other) =>
        other is not null && Id == other.Id && Name == other.Name && Country == other.Country && Books.SequenceEqual(other.Books);

    public override int GetHashCode() => HashCode.Combine(Id, Name, Country, Books.Count);
}
