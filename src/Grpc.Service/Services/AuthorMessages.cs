using ProtocolBench.Shared.Domain.Authors;

namespace ProtocolBench.Grpc.Service.Services;

/// <summary>AuthorDto to the proto messages, by hand.</summary>
public static class AuthorMessages
{
    public static V1.Author ToMessage(this AuthorDto author)
    {
        var message = new V1.Author { Id = author.Id, Name = author.Name, Country = author.Country };
        foreach (var book in author.Books)
        {
            message.Books.Add(new V1.Book { Id = book.Id, AuthorId = book.AuthorId, Title = book.Title, Year = book.Year });
        }

        return message;
    }

    public static AuthorList ToMessage(this IReadOnlyList<AuthorDto> authors)
    {
        var list = new AuthorList();
        list.Authors.Capacity = authors.Count;
        foreach (var author in authors)
        {
            list.Authors.Add(author.ToMessage());
        }

        return list;
    }
}
