using NpgsqlTypes;

namespace ProtocolBench.Shared.Domain.Data;

/// <summary>
/// The deterministic seed (docs/methodology.md, "The data") shared by every service and database, and how it is
/// written: in one transaction, at the database's bulk speed (a prepared insert on SQLite, binary COPY on PostgreSQL).
/// </summary>
public static class LibrarySeed
{
    public const int AuthorCount = 12_000;
    public const int BookCount = 24_000;

    public static readonly IReadOnlyList<string> Countries =
    [
        "Poland", "Germany", "France", "Italy", "Spain", "United Kingdom", "Ireland", "Portugal", "Netherlands", "Belgium",
        "Sweden", "Norway", "Denmark", "Finland", "Czechia", "Austria", "Hungary", "Greece", "Canada", "Japan",
    ];

    public static Author CreateAuthor(int i)
    {
        var author = new Author { Id = i, Name = $"Author - {i}", Country = Countries[i % Countries.Count] };
        for (var k = 1; k <= (i % 3) + 1; k++)
        {
            author.Books.Add(new Book { AuthorId = i, Title = $"Book {i}.{k}", Year = 1950 + ((i * 7) + k) % 75 });
        }

        return author;
    }

    /// <summary>Every author of the seed with its ids: author i has id i, and books are numbered from 1 in author order.</summary>
    public static IEnumerable<Author> Authors()
    {
        var bookId = 0;
        for (var i = 1; i <= AuthorCount; i++)
        {
            var author = CreateAuthor(i);
            foreach (var book in author.Books)
            {
                book.Id = ++bookId;
            }

            yield return author;
        }
    }

    /// <summary>Writes the seed into the empty tables, ids included, in one transaction.</summary>
    public static Task WriteAsync(DbConnection connection, CancellationToken cancellationToken) => connection switch
    {
        SqliteConnection sqlite => WriteAsync(sqlite, cancellationToken),
        NpgsqlConnection postgres => WriteAsync(postgres, cancellationToken),
        _ => throw new NotSupportedException($"No seed writer for {connection.GetType().Name}."),
    };

    /// <summary>
    /// One prepared statement per table, its parameters rebound for every row: SQLite compiles each statement once and
    /// the transaction is written once at its commit. Explicit ids also move the tables' AUTOINCREMENT counters on.
    /// </summary>
    private static async Task WriteAsync(SqliteConnection connection, CancellationToken cancellationToken)
    {
        await using var transaction = (SqliteTransaction)await connection.BeginTransactionAsync(cancellationToken);
        await using var authors = Insert(connection, transaction, "INSERT INTO authors (id, name, country) VALUES ($1, $2, $3)", 3);
        await using var books = Insert(connection, transaction, "INSERT INTO books (id, author_id, title, year) VALUES ($1, $2, $3, $4)", 4);
        foreach (var author in Authors())
        {
            await ExecuteAsync(authors, cancellationToken, author.Id, author.Name, author.Country);
            foreach (var book in author.Books)
            {
                await ExecuteAsync(books, cancellationToken, book.Id, book.AuthorId, book.Title, book.Year);
            }
        }

        await transaction.CommitAsync(cancellationToken);
    }

    private static SqliteCommand Insert(SqliteConnection connection, SqliteTransaction transaction, string sql, int parameters)
    {
        var command = new SqliteCommand(sql, connection, transaction);
        for (var p = 1; p <= parameters; p++)
        {
            command.Parameters.Add(new SqliteParameter { ParameterName = $"${p}" });
        }

        command.Prepare();
        return command;
    }

    private static async Task ExecuteAsync(SqliteCommand command, CancellationToken cancellationToken, params object[] values)
    {
        for (var p = 0; p < values.Length; p++)
        {
            command.Parameters[p].Value = values[p];
        }

        await command.ExecuteNonQueryAsync(cancellationToken);
    }

    /// <summary>
    /// Binary COPY (Npgsql's importer) of both tables, then the identity sequences moved past the ids written, so that
    /// the next author created gets id 12,001 as on SQLite.
    /// </summary>
    private static async Task WriteAsync(NpgsqlConnection connection, CancellationToken cancellationToken)
    {
        await using var transaction = await connection.BeginTransactionAsync(cancellationToken);
        await using (var authors = await connection.BeginBinaryImportAsync(
                         "COPY authors (id, name, country) FROM STDIN (FORMAT BINARY)", cancellationToken))
        {
            foreach (var author in Authors())
            {
                await authors.StartRowAsync(cancellationToken);
                await authors.WriteAsync(author.Id, NpgsqlDbType.Integer, cancellationToken);
                await authors.WriteAsync(author.Name, NpgsqlDbType.Varchar, cancellationToken);
                await authors.WriteAsync(author.Country, NpgsqlDbType.Varchar, cancellationToken);
            }

            await authors.CompleteAsync(cancellationToken);
        }

        await using (var books = await connection.BeginBinaryImportAsync(
                         "COPY books (id, author_id, title, year) FROM STDIN (FORMAT BINARY)", cancellationToken))
        {
            foreach (var book in Authors().SelectMany(a => a.Books))
            {
                await books.StartRowAsync(cancellationToken);
                await books.WriteAsync(book.Id, NpgsqlDbType.Integer, cancellationToken);
                await books.WriteAsync(book.AuthorId, NpgsqlDbType.Integer, cancellationToken);
                await books.WriteAsync(book.Title, NpgsqlDbType.Varchar, cancellationToken);
                await books.WriteAsync(book.Year, NpgsqlDbType.Integer, cancellationToken);
            }

            await books.CompleteAsync(cancellationToken);
        }

        await using (var sequences = new NpgsqlCommand(
                         "SELECT setval(pg_get_serial_sequence('authors', 'id'), (SELECT max(id) FROM authors)), " +
                         "setval(pg_get_serial_sequence('books', 'id'), (SELECT max(id) FROM books))",
                         connection,
                         transaction))
        {
            await sequences.ExecuteNonQueryAsync(cancellationToken);
        }

        await transaction.CommitAsync(cancellationToken);
    }
}
