using System.Runtime.InteropServices;
using Google.Protobuf;

namespace ProtocolBench.Shared.Clients;

/// <summary>The gRPC client's replies as the domain's DTOs, so that every protocol's client returns the same values to check.</summary>
internal static class GrpcMessages
{
    // Protobuf parses a bytes field into an array of exactly its size; hand that array over instead of copying it again.
    public static byte[] ToArray(ByteString data) =>
        MemoryMarshal.TryGetArray(data.Memory, out var segment) && segment.Offset == 0 && segment.Count == segment.Array!.Length
            ? segment.Array
            : data.ToByteArray();

    public static AuthorDto ToDto(V1.Author author)
    {
        var books = new BookDto[author.Books.Count];
        for (var i = 0; i < books.Length; i++)
        {
            var book = author.Books[i];
            books[i] = new BookDto(book.Id, book.AuthorId, book.Title, book.Year);
        }

        return new AuthorDto(author.Id, author.Name, author.Country, books);
    }

    public static ShapeDto ToDto(V1.Shape shape)
    {
        var children = shape.Children.Count == 0 ? [] : new ShapeDto[shape.Children.Count];
        for (var i = 0; i < children.Length; i++)
        {
            children[i] = ToDto(shape.Children[i]);
        }

        return new ShapeDto(shape.Id, shape.Name, shape.Count, shape.Ratio, children);
    }

    public static List<AuthorDto> ToDtos(V1.AuthorList list)
    {
        var authors = new List<AuthorDto>(list.Authors.Count);
        foreach (var author in list.Authors)
        {
            authors.Add(ToDto(author));
        }

        return authors;
    }
}
