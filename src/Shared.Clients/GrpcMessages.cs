using System.Runtime.InteropServices;
using Google.Protobuf;
using Google.Protobuf.Collections;

namespace ProtocolBench.Shared.Clients;

/// <summary>
/// The gRPC client's replies as the domain's values, so that every protocol's client returns the same values to
/// check: a message the domain has a type for becomes it (Author, Shape, FileReply); any other reply wraps one field
/// (CloneReply's text, AuthorList's authors), which is read instead; a reply with no field answers true (a delete).
/// </summary>
internal static class GrpcMessages
{
    public static T Read<T>(IMessage reply) =>
        typeof(T) == typeof(bool) && reply.Descriptor.Fields.InDeclarationOrder().Count == 0 ? (T)(object)true : (T)Value(reply);

    private static object Value(object value) => value switch
    {
        V1.Author author => ToDto(author),
        V1.Shape shape => ToDto(shape),
        V1.FileReply file => new FilePayload(file.Name, file.ContentType, ToArray(file.Data)),
        RepeatedField<int> ints => ints.ToArray(),
        RepeatedField<V1.Author> authors => ToDtos(authors),
        RepeatedField<V1.Shape> shapes => ToDtos(shapes),
        IMessage wrapper when wrapper.Descriptor.Fields.InDeclarationOrder() is [var only] => Value(only.Accessor.GetValue(wrapper)),
        IMessage other => throw new NotSupportedException($"The gRPC client reads no {other.Descriptor.Name}: map it in GrpcMessages."),
        _ => value,
    };

    // Protobuf parses a bytes field into an array of exactly its size; hand that array over instead of copying it again.
    private static byte[] ToArray(ByteString data) =>
        MemoryMarshal.TryGetArray(data.Memory, out var segment) && segment.Offset == 0 && segment.Count == segment.Array!.Length
            ? segment.Array
            : data.ToByteArray();

    private static AuthorDto ToDto(V1.Author author)
    {
        var books = new BookDto[author.Books.Count];
        for (var i = 0; i < books.Length; i++)
        {
            var book = author.Books[i];
            books[i] = new BookDto(book.Id, book.AuthorId, book.Title, book.Year);
        }

        return new AuthorDto(author.Id, author.Name, author.Country, books);
    }

    private static ShapeDto ToDto(V1.Shape shape)
    {
        var children = shape.Children.Count == 0 ? [] : new ShapeDto[shape.Children.Count];
        for (var i = 0; i < children.Length; i++)
        {
            children[i] = ToDto(shape.Children[i]);
        }

        return new ShapeDto(shape.Id, shape.Name, shape.Count, shape.Ratio, children);
    }

    private static List<AuthorDto> ToDtos(RepeatedField<V1.Author> list)
    {
        var authors = new List<AuthorDto>(list.Count);
        foreach (var author in list)
        {
            authors.Add(ToDto(author));
        }

        return authors;
    }

    private static ShapeDto[] ToDtos(RepeatedField<V1.Shape> list)
    {
        var shapes = new ShapeDto[list.Count];
        for (var i = 0; i < shapes.Length; i++)
        {
            shapes[i] = ToDto(list[i]);
        }

        return shapes;
    }
}
