using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Infrastructure;
using ProtocolBench.Shared.Domain.Payloads;

namespace ProtocolBench.Lab.Scenarios;

/// <summary>
/// The operations in this process, without any protocol: what every service does behind its protocol, called the
/// same way (the descriptor's domain call, a pooled context per call as a request scope has, the loaded files),
/// so that a scenario's time here is its domain floor, the work all protocols share.
/// </summary>
public sealed class InProcessOperations : ILibraryOperations, IDomainScope
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

    public bool Offers(Operation operation) => true;

    public Task<TResult> CallAsync<TResult>(OperationCall<TResult> call, CancellationToken cancellationToken = default) =>
        call.Operation.RunAsync(this, call, cancellationToken);

    PayloadFiles IDomainScope.Files => Files;

    public async Task<T> InDatabaseAsync<T>(Func<LibraryDbContext, Task<T>> work, CancellationToken cancellationToken)
    {
        if (_contexts is null)
        {
            throw new InvalidOperationException("The services' database is not known (--external without --database): the author operations cannot run in process.");
        }

        await using var db = await _contexts.CreateDbContextAsync(cancellationToken);
        return await work(db);
    }

    /// <summary>
    /// Clean-up, not an operation of the benchmark: the authors whose names start with <paramref name="prefix"/> and their
    /// books deleted in one statement each, where a protocol's client deletes one by one (<see cref="CreatedAuthors"/>).
    /// </summary>
    public Task<int> DeleteAuthorsNamedAsync(string prefix, CancellationToken cancellationToken = default) =>
        InDatabaseAsync(async db =>
        {
            await using var transaction = await db.Database.BeginTransactionAsync(cancellationToken);
            await db.Books.Where(b => db.Authors.Where(a => a.Name.StartsWith(prefix)).Select(a => a.Id).Contains(b.AuthorId)).ExecuteDeleteAsync(cancellationToken);
            var deleted = await db.Authors.Where(a => a.Name.StartsWith(prefix)).ExecuteDeleteAsync(cancellationToken);
            await transaction.CommitAsync(cancellationToken);
            return deleted;
        }, cancellationToken);

    public ValueTask DisposeAsync() => ValueTask.CompletedTask;

    private PayloadFiles Files => _files ?? Catalogue.Files;
}
