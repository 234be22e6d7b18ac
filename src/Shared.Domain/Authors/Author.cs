namespace ProtocolBench.Shared.Domain.Authors;

public sealed class Author
{
    public int Id { get; set; }

    public required string Name { get; set; }

    public required string Country { get; set; }

    public List<Book> Books { get; set; } = [];
}

public sealed class Book
{
    public int Id { get; set; }

    public int AuthorId { get; set; }

    public required string Title { get; set; }

    public int Year { get; set; }
}
