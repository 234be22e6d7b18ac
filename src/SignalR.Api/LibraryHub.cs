using System.Runtime.CompilerServices;
using ProtocolBench.Shared.Domain.Authors;
using ProtocolBench.Shared.Domain.Data;
using ProtocolBench.Shared.Domain.Shapes;

namespace ProtocolBench.SignalR.Api;

/// <summary>
/// Every operation as a hub method named like its gRPC call; the work is Shared.Domain's. SignalR makes a scope per
/// invocation, so each call has its own DbContext from the pool, as a request has on the other services.
/// </summary>
public sealed class LibraryHub(LibraryDbContext db, PayloadFiles files) : Hub
{
    public const string Path = "/hub";

    private const int ChunkSize = 64 * 1024;

    [Operation(nameof(Operation.Clone))]
    public string Clone(string? text, int? count) => PayloadOperations.Clone(text, count);

    [Operation(nameof(Operation.GetIntMax))]
    public int GetIntMax() => PayloadOperations.IntMax;

    [Operation(nameof(Operation.GetInts))]
    public int[] GetInts(int? count) => PayloadOperations.Ints(count);

    [Operation(nameof(Operation.GetSample))]
    public AuthorDto GetSample() => PayloadOperations.Sample;

    [Operation(nameof(Operation.GetTextFile))]
    public FilePayload GetTextFile() => files.TextFile;

    [Operation(nameof(Operation.GetPdf))]
    public FilePayload GetPdf() => files.PdfFile;

    /// <summary>
    /// The PDF as a stream of 64 KiB chunks, as gRPC's StreamPdf sends it. Not an iterator itself, so that a missing file
    /// fails the invocation (and reaches <see cref="HubErrors"/>) before the stream starts.
    /// </summary>
    [Operation(nameof(Operation.StreamPdf))]
    public IAsyncEnumerable<ReadOnlyMemory<byte>> StreamPdf(CancellationToken cancellationToken) => Chunks(files.Pdf, cancellationToken);

    [Operation(nameof(Operation.SearchAuthors))]
    public Task<IReadOnlyList<AuthorDto>> SearchAuthors(string? phrase, int? limit) =>
        db.SearchAsync(phrase, limit, Context.ConnectionAborted);

    [Operation(nameof(Operation.ListAuthors))]
    public Task<IReadOnlyList<AuthorDto>> ListAuthors(int? skip, int? take) =>
        db.ListAsync(skip, take, Context.ConnectionAborted);

    [Operation(nameof(Operation.GetAuthor))]
    public Task<AuthorDto> GetAuthor(int id) => db.GetAsync(id, Context.ConnectionAborted);

    [Operation(nameof(Operation.CreateAuthor))]
    public Task<AuthorDto> CreateAuthor(string? name, string? country) =>
        db.CreateAsync(new AuthorInput(name, country), Context.ConnectionAborted);

    [Operation(nameof(Operation.UpdateAuthor))]
    public Task<AuthorDto> UpdateAuthor(int id, string? name, string? country) =>
        db.UpdateAsync(id, new AuthorInput(name, country), Context.ConnectionAborted);

    [Operation(nameof(Operation.DeleteAuthor))]
    public Task DeleteAuthor(int id) => db.DeleteAsync(id, Context.ConnectionAborted);

    [Operation(nameof(Operation.GetShape))]
    public ShapeDto GetShape(string? kind, int? id) => ShapeOperations.Get(kind, id);

    [Operation(nameof(Operation.ListShapes))]
    public IReadOnlyList<ShapeDto> ListShapes(string? kind, int? count) => ShapeOperations.List(kind, count);

    private static async IAsyncEnumerable<ReadOnlyMemory<byte>> Chunks(byte[] file, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        for (var offset = 0; offset < file.Length; offset += ChunkSize)
        {
            cancellationToken.ThrowIfCancellationRequested();
            yield return file.AsMemory(offset, Math.Min(ChunkSize, file.Length - offset));
        }

        await Task.CompletedTask;
    }
}
