using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Infrastructure;
using ProtocolBench.Shared.Domain.Authors;
using ProtocolBench.Shared.Domain.Payloads;
using ProtocolBench.Shared.Domain.Shapes;

namespace ProtocolBench.Lab.Scenarios;

/// <summary>
/// The operations in this process, without any protocol: what every service does behind its protocol, called the
/// same way (the Shared.Domain implementation, a pooled context per call as a request scope has, the loaded files),
/// so that a scenario's time here is its domain floor, the work all protocols share.
/// </summary>
public sealed class InProcessOperations : ILibraryOperations
{
    private readonly PooledDbContextFactory<LibraryDbContext>? _contexts;
    private readonly PayloadFiles? _files;

    /// <param name="database">The services' database; null when it is not known (then the author operations throw).</param>
    /// <param name="files">The fixture files; by default the catalogue's, read when first asked for.</param>
    public InProcessOperations(DatabaseOptions? database, PayloadFiles? files = null)
    {
        _files = files;
        if (database is not null)
        {
            _contexts = new PooledDbContextFactory<LibraryDbContext>(database.ContextOptions());
        }
    }

    public Task<string> CloneAsync(string? text, int? count, CancellationToken cancellationToken = default) =>
        Task.FromResult(PayloadOperations.Clone(text, count));

    public Task<int> GetIntMaxAsync(CancellationToken cancellationToken = default) => Task.FromResult(PayloadOperations.IntMax);

    public Task<int[]> GetIntsAsync(int? count, CancellationToken cancellationToken = default) => Task.FromResult(PayloadOperations.Ints(count));

    public Task<AuthorDto> GetSampleAsync(CancellationToken cancellationToken = default) => Task.FromResult(PayloadOperations.Sample);

    public Task<byte[]> GetTextFileAsync(CancellationToken cancellationToken = default) => Task.FromResult(Files.Text);

    public Task<byte[]> GetPdfAsync(CancellationToken cancellationToken = default) => Task.FromResult(Files.Pdf);

    public Task<byte[]>? GetTextFileBinaryAsync(CancellationToken cancellationToken = default) => Task.FromResult(Files.Text);

    public Task<byte[]>? GetPdfBinaryAsync(CancellationToken cancellationToken = default) => Task.FromResult(Files.Pdf);

    public Task<IReadOnlyList<AuthorDto>> SearchAuthorsAsync(string? phrase, int? limit = null, CancellationToken cancellationToken = default) =>
        WithContext(db => db.SearchAsync(phrase, limit, cancellationToken), cancellationToken);

    public Task<IReadOnlyList<AuthorDto>> ListAuthorsAsync(int? skip = null, int? take = null, CancellationToken cancellationToken = default) =>
        WithContext(db => db.ListAsync(skip, take, cancellationToken), cancellationToken);

    public Task<AuthorDto> GetAuthorAsync(int id, CancellationToken cancellationToken = default) =>
        WithContext(db => db.GetAsync(id, cancellationToken), cancellationToken);

    public Task<AuthorDto> CreateAuthorAsync(string? name, string? country, CancellationToken cancellationToken = default) =>
        WithContext(db => db.CreateAsync(new AuthorInput(name, country), cancellationToken), cancellationToken);

    public Task<AuthorDto> UpdateAuthorAsync(int id, string? name, string? country, CancellationToken cancellationToken = default) =>
        WithContext(db => db.UpdateAsync(id, new AuthorInput(name, country), cancellationToken), cancellationToken);

    public Task DeleteAuthorAsync(int id, CancellationToken cancellationToken = default) =>
        WithContext(async db =>
        {
            await db.DeleteAsync(id, cancellationToken);
            return true;
        }, cancellationToken);

    public Task<ShapeDto> GetShapeAsync(string? kind, int id, CancellationToken cancellationToken = default) =>
        Task.FromResult(ShapeOperations.Get(kind, id));

    public Task<IReadOnlyList<ShapeDto>> ListShapesAsync(string? kind, int? count = null, CancellationToken cancellationToken = default) =>
        Task.FromResult(ShapeOperations.List(kind, count));

    /// <summary>
    /// Clean-up, not an operation of the benchmark: the authors whose names start with <paramref name="prefix"/> and their
    /// books deleted in one statement each, where a protocol's client deletes one by one (<see cref="CreatedAuthors"/>).
    /// </summary>
    public Task<int> DeleteAuthorsNamedAsync(string prefix, CancellationToken cancellationToken = default) =>
        WithContext(async db =>
        {
            await using var transaction = await db.Database.BeginTransactionAsync(cancellationToken);
            await db.Books.Where(b => db.Authors.Where(a => a.Name.StartsWith(prefix)).Select(a => a.Id).Contains(b.AuthorId)).ExecuteDeleteAsync(cancellationToken);
            var deleted = await db.Authors.Where(a => a.Name.StartsWith(prefix)).ExecuteDeleteAsync(cancellationToken);
            await transaction.CommitAsync(cancellationToken);
            return deleted;
        }, cancellationToken);

    public ValueTask DisposeAsync() => ValueTask.CompletedTask;

    private PayloadFiles Files => _files ?? Catalogue.Files;

    private async Task<T> WithContext<T>(Func<LibraryDbContext, Task<T>> operation, CancellationToken cancellationToken)
    {
        if (_contexts is null)
        {
            throw new InvalidOperationException("The services' database is not known (--external without --database): the author operations cannot run in process.");
        }

        await using var db = await _contexts.CreateDbContextAsync(cancellationToken);
        return await operation(db);
    }
}
