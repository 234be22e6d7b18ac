namespace ProtocolBench.Shared.Domain.Authors;

public sealed class Book
{
    public int Id { get; set; }

    public int AuthorId { get; set; }

    public required string Title { get; set; }

    public int Year { get; set; }
}
