using System.Security.Cryptography;
using ProtocolBench.Shared.Domain.Authors;
using ProtocolBench.Shared.Domain.Shapes;

namespace ProtocolBench.Lab.Scenarios;

/// <summary>
/// Checks on every response before it counts. The per-call checks are O(1) (value, length, first and last element);
/// the full comparisons (hashes, every author) run once per cell in GlobalSetup.
/// </summary>
public static class Checks
{
    public static T Equal<T>(T actual, T expected, string what)
    {
        if (!EqualityComparer<T>.Default.Equals(actual, expected))
        {
            throw Wrong(what, $"expected {expected}, got {actual}");
        }

        return actual;
    }

    public static string Text(string actual, string expected, string what)
    {
        if (actual.Length != expected.Length || actual[0] != expected[0] || actual[^1] != expected[^1] || actual[actual.Length / 2] != expected[expected.Length / 2])
        {
            throw Wrong(what, $"expected {expected.Length} characters, got {actual.Length}");
        }

        return actual;
    }

    public static int[] Ints(int[] actual, int count, string what)
    {
        if (actual.Length != count || actual[0] != 0 || actual[^1] != count - 1)
        {
            throw Wrong(what, $"expected 0..{count - 1}, got {actual.Length} values");
        }

        return actual;
    }

    public static byte[] Bytes(byte[] actual, byte[] expected, string what)
    {
        if (actual.Length != expected.Length || actual[0] != expected[0] || actual[^1] != expected[^1] || actual[actual.Length / 2] != expected[expected.Length / 2])
        {
            throw Wrong(what, $"expected {expected.Length:N0} bytes, got {actual.Length:N0}");
        }

        return actual;
    }

    public static void Sha256(byte[] actual, string expectedHex, string what)
    {
        var hash = Convert.ToHexStringLower(SHA256.HashData(actual));
        if (hash != expectedHex)
        {
            throw Wrong(what, $"SHA-256 {hash} instead of {expectedHex} ({actual.Length:N0} bytes)");
        }
    }

    public static IReadOnlyList<AuthorDto> Authors(IReadOnlyList<AuthorDto> actual, int count, int firstId, int lastId, string what)
    {
        if (actual.Count != count || actual[0].Id != firstId || actual[^1].Id != lastId)
        {
            throw Wrong(what, $"expected {count} authors {firstId}..{lastId}, got {actual.Count}" +
                              (actual.Count > 0 ? $" ({actual[0].Id}..{actual[^1].Id})" : ""));
        }

        return actual;
    }

    /// <summary>Every author exactly as the seed made it (docs/methodology.md, "The data"), in id order.</summary>
    public static void SeededAuthors(IReadOnlyList<AuthorDto> actual, IReadOnlyList<int> ids, string what)
    {
        if (actual.Count != ids.Count)
        {
            throw Wrong(what, $"expected {ids.Count} authors, got {actual.Count}");
        }

        for (var i = 0; i < ids.Count; i++)
        {
            SeededAuthor(actual[i], ids[i], what);
        }
    }

    public static AuthorDto SeededAuthor(AuthorDto actual, int id, string what)
    {
        var seed = LibrarySeed.CreateAuthor(id);
        var books = seed.Books.ToList();
        var same = actual.Id == id && actual.Name == seed.Name && actual.Country == seed.Country && actual.Books.Count == books.Count;
        for (var k = 0; same && k < books.Count; k++)
        {
            same = actual.Books[k].AuthorId == id && actual.Books[k].Title == books[k].Title && actual.Books[k].Year == books[k].Year;
        }

        return same ? actual : throw Wrong(what, $"author {id} differs from the seed: got {actual}");
    }

    /// <summary>A collection of shapes: its length, and its first, middle and last shape whole.</summary>
    public static IReadOnlyList<ShapeDto> Shapes(IReadOnlyList<ShapeDto> actual, IReadOnlyList<ShapeDto> expected, string what)
    {
        if (actual.Count != expected.Count)
        {
            throw Wrong(what, $"{actual.Count} shapes, expected {expected.Count}");
        }

        foreach (var i in new[] { 0, actual.Count / 2, actual.Count - 1 })
        {
            if (!actual[i].Equals(expected[i]))
            {
                throw Wrong(what, $"shape {i + 1} differs from the one built in memory");
            }
        }

        return actual;
    }

    public static InvalidDataException Wrong(string what, string detail) => new($"Wrong response to {what}: {detail}.");
}
