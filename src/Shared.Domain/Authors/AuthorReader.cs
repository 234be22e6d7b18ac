using Microsoft.EntityFrameworkCore.Storage;
using ProtocolBench.Shared.Domain.Data;

namespace ProtocolBench.Shared.Domain.Authors;

/// <summary>
/// Every author read (search, list, get) as one SQL statement, the statement EF Core generates for a projection of
/// authors with their books, read row by row into DTOs. Hand-written because EF Core's shaping of that statement's rows
/// cost more than the database did: search "Author - 1" (6,224 rows: 3,112 authors, their books) took 21 ms through
/// the projection, 8 ms read here, of which SQLite needs 4 (docs/methodology.md, "The shared query").
/// The connection is EF Core's, opened through it, so its interceptors (<see cref="SqliteFileGuard"/>), command timeout
/// and current transaction apply as they do to EF Core's own commands.
/// </summary>
internal static class AuthorReader
{
    public static Task<List<AuthorDto>> SearchAsync(LibraryDbContext db, string phrase, int take, CancellationToken cancellationToken) =>
        // Ordinal and case-sensitive on both databases, with % _ ' as plain characters: what EF Core translates
        // string.Contains to (instr on SQLite, strpos on PostgreSQL).
        ReadAsync(db, db.Database.IsSqlite() ? "instr(name, @phrase) > 0" : "strpos(name, @phrase) > 0", 0, take, cancellationToken, ("phrase", phrase));

    public static Task<List<AuthorDto>> ListAsync(LibraryDbContext db, int skip, int take, CancellationToken cancellationToken) =>
        ReadAsync(db, "TRUE", skip, take, cancellationToken);

    public static Task<List<AuthorDto>> GetAsync(LibraryDbContext db, int id, CancellationToken cancellationToken) =>
        ReadAsync(db, "id = @id", 0, 1, cancellationToken, ("id", id));

    /// <summary>Whether the database has any author: the health check's query.</summary>
    public static Task<bool> AnyAsync(LibraryDbContext db, CancellationToken cancellationToken) =>
        ExecuteAsync(
            db,
            "SELECT EXISTS (SELECT 1 FROM authors)",
            [],
            async (command, ct) => Convert.ToBoolean(await command.ExecuteScalarAsync(ct)),
            cancellationToken);

    private static Task<List<AuthorDto>> ReadAsync(
        LibraryDbContext db, string where, int skip, int take, CancellationToken cancellationToken, params (string Name, object Value)[] parameters) =>
        ExecuteAsync(
            db,
            $"""
            SELECT a.id, a.name, a.country, b.id, b.title, b.year
            FROM (SELECT id, name, country FROM authors WHERE {where} ORDER BY id LIMIT @take OFFSET @skip) AS a
            LEFT JOIN books AS b ON b.author_id = a.id
            ORDER BY a.id, b.id
            """,
            [.. parameters, ("take", take), ("skip", skip)],
            async (command, ct) =>
            {
                await using var reader = await command.ExecuteReaderAsync(ct);
                return await ReadRowsAsync(reader, ct);
            },
            cancellationToken);

    private static async Task<T> ExecuteAsync<T>(
        LibraryDbContext db,
        string sql,
        IEnumerable<(string Name, object Value)> parameters,
        Func<DbCommand, CancellationToken, Task<T>> execute,
        CancellationToken cancellationToken)
    {
        await db.Database.OpenConnectionAsync(cancellationToken);
        try
        {
            await using var command = db.Database.GetDbConnection().CreateCommand();
            command.Transaction = db.Database.CurrentTransaction?.GetDbTransaction();
            command.CommandTimeout = db.Database.GetCommandTimeout() ?? command.CommandTimeout;
            command.CommandText = sql;
            foreach (var (name, value) in parameters)
            {
                var parameter = command.CreateParameter();
                parameter.ParameterName = "@" + name;
                parameter.Value = value;
                command.Parameters.Add(parameter);
            }

            return await execute(command, cancellationToken);
        }
        finally
        {
            await db.Database.CloseConnectionAsync();
        }
    }

    /// <summary>The rows come ordered by author, then book: an author's row starts its book list, and an author without books has one row of nulls on the books' side.</summary>
    private static async Task<List<AuthorDto>> ReadRowsAsync(DbDataReader reader, CancellationToken cancellationToken)
    {
        var authors = new List<AuthorDto>();
        List<BookDto>? books = null;
        var current = 0;
        while (await reader.ReadAsync(cancellationToken))
        {
            var id = reader.GetInt32(0);
            if (id != current)
            {
                current = id;
                books = [];
                authors.Add(new AuthorDto(id, reader.GetString(1), reader.GetString(2), books));
            }

            if (!reader.IsDBNull(3))
            {
                books!.Add(new BookDto(reader.GetInt32(3), id, reader.GetString(4), reader.GetInt32(5)));
            }
        }

        return authors;
    }
}
