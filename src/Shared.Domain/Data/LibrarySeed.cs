using Microsoft.EntityFrameworkCore;
using ProtocolBench.Shared.Domain.Authors;

namespace ProtocolBench.Shared.Domain.Data;

/// <summary>The deterministic seed (docs/methodology.md, "The data") shared by every service and database.</summary>
public static class LibrarySeed
{
    public const int AuthorCount = 12_000;
    public const int BookCount = 24_000;
    private const int BatchSize = 2_000;

    public static readonly IReadOnlyList<string> Countries =
    [
        "Poland", "Germany", "France", "Italy", "Spain", "United Kingdom", "Ireland", "Portugal", "Netherlands", "Belgium",
        "Sweden", "Norway", "Denmark", "Finland", "Czechia", "Austria", "Hungary", "Greece", "Canada", "Japan",
    ];

    public static Author CreateAuthor(int i)
    {
        var author = new Author { Name = $"Author - {i}", Country = Countries[i % Countries.Count] };
        for (var k = 1; k <= (i % 3) + 1; k++)
        {
            author.Books.Add(new Book { Title = $"Book {i}.{k}", Year = 1950 + ((i * 7) + k) % 75 });
        }

        return author;
    }

    /// <summary>Inserts the seed in batches, in id order, so author i gets id i on a fresh database.</summary>
    public static async Task SeedAsync(LibraryDbContext db, CancellationToken cancellationToken)
    {
        db.ChangeTracker.AutoDetectChangesEnabled = false;
        for (var start = 1; start <= AuthorCount; start += BatchSize)
        {
            var end = Math.Min(start + BatchSize - 1, AuthorCount);
            for (var i = start; i <= end; i++)
            {
                db.Authors.Add(CreateAuthor(i));
            }

            await db.SaveChangesAsync(cancellationToken);
            db.ChangeTracker.Clear();
        }
    }

    public static async Task<bool> IsEmptyAsync(LibraryDbContext db, CancellationToken cancellationToken) =>
        !await db.Authors.AnyAsync(cancellationToken);
}
