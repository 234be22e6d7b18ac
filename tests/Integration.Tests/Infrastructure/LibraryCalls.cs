using ProtocolBench.Shared.Domain.Shapes;

namespace ProtocolBench.Integration.Tests.Infrastructure;

/// <summary>
/// The operations as typed calls, so that a test reads as what it asks: each sends <c>Operation.X.With(…)</c> through
/// <see cref="ILibraryOperations.CallAsync{TResult}"/>, as the catalogue does. Tests only: the product names no
/// operation outside its descriptor.
/// </summary>
public static class LibraryCalls
{
    public static Task<string> CloneAsync(this ILibraryOperations client, string? text, int? count, CancellationToken cancellationToken = default) =>
        client.CallAsync(Operation.Clone.With(text, count), cancellationToken);

    public static Task<int> GetIntMaxAsync(this ILibraryOperations client, CancellationToken cancellationToken = default) =>
        client.CallAsync(Operation.GetIntMax.With(), cancellationToken);

    public static Task<int[]> GetIntsAsync(this ILibraryOperations client, int? count, CancellationToken cancellationToken = default) =>
        client.CallAsync(Operation.GetInts.With(count), cancellationToken);

    public static Task<AuthorDto> GetSampleAsync(this ILibraryOperations client, CancellationToken cancellationToken = default) =>
        client.CallAsync(Operation.GetSample.With(), cancellationToken);

    public static async Task<byte[]> GetTextFileAsync(this ILibraryOperations client, CancellationToken cancellationToken = default) =>
        (await client.CallAsync(Operation.GetTextFile.With(), cancellationToken)).Data;

    public static async Task<byte[]> GetPdfAsync(this ILibraryOperations client, CancellationToken cancellationToken = default) =>
        (await client.CallAsync(Operation.GetPdf.With(), cancellationToken)).Data;

    /// <summary>The text file's binary form: REST's /raw, gRPC's bytes field; null where there is none (GraphQL, the hub).</summary>
    public static Task<byte[]>? GetTextFileBinaryAsync(this ILibraryOperations client, CancellationToken cancellationToken = default) =>
        client.Offers(Operation.GetTextFileRaw) ? client.CallAsync(Operation.GetTextFileRaw.With(), cancellationToken)
        : client is IProtocolClient { Protocol: Protocol.Grpc } ? client.GetTextFileAsync(cancellationToken)
        : null;

    /// <summary>The PDF's binary form: REST's /raw, the stream of gRPC and the hub; null where there is none (GraphQL).</summary>
    public static Task<byte[]>? GetPdfBinaryAsync(this ILibraryOperations client, CancellationToken cancellationToken = default) =>
        client.Offers(Operation.GetPdfRaw) ? client.CallAsync(Operation.GetPdfRaw.With(), cancellationToken)
        : client.Offers(Operation.StreamPdf) ? client.CallAsync(Operation.StreamPdf.With(), cancellationToken)
        : null;

    public static Task<IReadOnlyList<AuthorDto>> SearchAuthorsAsync(this ILibraryOperations client, string? phrase, int? limit = null, CancellationToken cancellationToken = default) =>
        client.CallAsync(Operation.SearchAuthors.With(phrase, limit), cancellationToken);

    public static Task<IReadOnlyList<AuthorDto>> ListAuthorsAsync(this ILibraryOperations client, int? skip = null, int? take = null, CancellationToken cancellationToken = default) =>
        client.CallAsync(Operation.ListAuthors.With(skip, take), cancellationToken);

    public static Task<AuthorDto> GetAuthorAsync(this ILibraryOperations client, int id, CancellationToken cancellationToken = default) =>
        client.CallAsync(Operation.GetAuthor.With(id), cancellationToken);

    public static Task<AuthorDto> CreateAuthorAsync(this ILibraryOperations client, string? name, string? country, CancellationToken cancellationToken = default) =>
        client.CallAsync(Operation.CreateAuthor.With(name, country), cancellationToken);

    public static Task<AuthorDto> UpdateAuthorAsync(this ILibraryOperations client, int id, string? name, string? country, CancellationToken cancellationToken = default) =>
        client.CallAsync(Operation.UpdateAuthor.With(id, name, country), cancellationToken);

    public static Task DeleteAuthorAsync(this ILibraryOperations client, int id, CancellationToken cancellationToken = default) =>
        client.CallAsync(Operation.DeleteAuthor.With(id), cancellationToken);

    public static Task<ShapeDto> GetShapeAsync(this ILibraryOperations client, string? kind, int id, CancellationToken cancellationToken = default) =>
        client.CallAsync(Operation.GetShape.With(kind, id), cancellationToken);

    public static Task<IReadOnlyList<ShapeDto>> ListShapesAsync(this ILibraryOperations client, string? kind, int? count = null, CancellationToken cancellationToken = default) =>
        client.CallAsync(Operation.ListShapes.With(kind, count), cancellationToken);
}
