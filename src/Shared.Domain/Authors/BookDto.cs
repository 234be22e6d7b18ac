namespace ProtocolBench.Shared.Domain.Authors;

public sealed record BookDto(int Id, int AuthorId, string Title, int Year);
