using ProtocolBench.Shared.Domain.Data;

namespace ProtocolBench.Shared.Domain.Authors;

/// <summary>
/// The author operations (docs/methodology.md, "The data"), implemented once. Every service calls these and only translates its protocol.
/// Arguments are validated before the first query; reads are one SQL statement each, ordered by id (<see cref="AuthorReader"/>). Every write is one explicit
/// transaction: its commit is the point where the write is kept, checked before it is acknowledged (<see cref="SqliteFileGuard"/>).
/// A write whose arguments are valid runs to its end even when its client goes away (<see cref="Unstoppable"/>): the commit
/// happens or fails on its own, the next read says which, and nothing is logged at Error for a client that left.
/// </summary>
public static class AuthorOperations
{
    public static async Task<IReadOnlyList<AuthorDto>> SearchAsync(
        this LibraryDbContext db, string? phrase, int? limit, CancellationToken cancellationToken)
    {
        var text = Validate.Text("phrase", phrase, Limits.SearchPhraseMaxLength);
        var take = limit ?? Limits.SearchLimitMax;
        Validate.Range("limit", take, 1, Limits.SearchLimitMax);

        return await AuthorReader.SearchAsync(db, text, take, cancellationToken);
    }

    /// <summary>Whether the database has any author (the services' health checks ask).</summary>
    public static Task<bool> AnyAuthorsAsync(this LibraryDbContext db, CancellationToken cancellationToken) =>
        AuthorReader.AnyAsync(db, cancellationToken);

    public static async Task<IReadOnlyList<AuthorDto>> ListAsync(
        this LibraryDbContext db, int? skip, int? take, CancellationToken cancellationToken)
    {
        var from = skip ?? 0;
        var count = take ?? Limits.ListTakeDefault;
        Validate.AtLeast("skip", from, 0);
        Validate.Range("take", count, 1, Limits.ListTakeMax);

        return await AuthorReader.ListAsync(db, from, count, cancellationToken);
    }

    public static async Task<AuthorDto> GetAsync(this LibraryDbContext db, int id, CancellationToken cancellationToken)
    {
        ValidateId(id);
        return (await AuthorReader.GetAsync(db, id, cancellationToken)).SingleOrDefault() ?? throw NotFound(id);
    }

    public static async Task<AuthorDto> CreateAsync(this LibraryDbContext db, AuthorInput input, CancellationToken cancellationToken)
    {
        var (name, country) = ValidateInput(input);
        var author = new Author { Name = name, Country = country };
        cancellationToken = Unstoppable(cancellationToken);
        await using var transaction = await db.Database.BeginTransactionAsync(cancellationToken);
        db.Authors.Add(author);
        await db.SaveChangesAsync(cancellationToken);
        db.ChangeTracker.Clear();
        await transaction.CommitAsync(cancellationToken);
        return author.ToDto();
    }

    public static async Task<AuthorDto> UpdateAsync(
        this LibraryDbContext db, int id, AuthorInput input, CancellationToken cancellationToken)
    {
        ValidateId(id);
        var (name, country) = ValidateInput(input);
        cancellationToken = Unstoppable(cancellationToken);
        await using var transaction = await db.Database.BeginTransactionAsync(cancellationToken);
        var updated = await db.Authors
            .Where(a => a.Id == id)
            .ExecuteUpdateAsync(s => s.SetProperty(a => a.Name, name).SetProperty(a => a.Country, country), cancellationToken);
        if (updated == 0)
        {
            throw NotFound(id);
        }

        var author = await db.GetAsync(id, cancellationToken);
        await transaction.CommitAsync(cancellationToken);
        return author;
    }

    public static async Task DeleteAsync(this LibraryDbContext db, int id, CancellationToken cancellationToken)
    {
        ValidateId(id);
        cancellationToken = Unstoppable(cancellationToken);
        await using var transaction = await db.Database.BeginTransactionAsync(cancellationToken);
        await db.Books.Where(b => b.AuthorId == id).ExecuteDeleteAsync(cancellationToken);
        var deleted = await db.Authors.Where(a => a.Id == id).ExecuteDeleteAsync(cancellationToken);
        if (deleted == 0)
        {
            throw NotFound(id);
        }

        await transaction.CommitAsync(cancellationToken);
    }

    /// <summary>
    /// A write's token once its arguments are valid: none. Cancelled between its statements or at its commit (a client that
    /// resets its connection 0–11 ms after a create), EF Core rolled the write back and logged the commit's cancellation at
    /// Error (Database.Transaction 20205). Each statement is still bounded by the database's command timeout.
    /// </summary>
    private static CancellationToken Unstoppable(CancellationToken requestAborted)
    {
        requestAborted.ThrowIfCancellationRequested();
        return CancellationToken.None;
    }

    private static void ValidateId(int id) => Validate.AtLeast("id", id, 1);

    private static (string Name, string Country) ValidateInput(AuthorInput? input) => (
        Validate.Text("name", input?.Name, Limits.AuthorNameMaxLength),
        Validate.Text("country", input?.Country, Limits.AuthorCountryMaxLength));

    private static DomainException NotFound(int id) => DomainException.NotFound("id", $"Author {id} was not found.");
}
