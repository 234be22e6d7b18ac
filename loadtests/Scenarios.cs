using ProtocolBench.Shared.Clients;
using ProtocolBench.Shared.Domain.Authors;
using ProtocolBench.Shared.Domain.Payloads;
using ProtocolBench.Shared.Hosting;

namespace ProtocolBench.LoadTests;

/// <summary>One request a virtual user repeats. The call is timed; the check runs after the clock stops.</summary>
public sealed record Scenario(
    string Name,
    string Title,
    Func<IProtocolClient, string, CancellationToken, Task<object>> Call,
    Func<object, string, string?> Check)
{
    /// <summary>Writes an author whose name is the request's marker (the nothing-lost check looks for it).</summary>
    public bool Creates { get; init; }

    /// <summary>Bolanowski scenario number (I..VII) when this is one of them.</summary>
    public string? Bolanowski { get; init; }

    /// <summary>The phrase and the rows a search returns (Śliwa &amp; Pańczyk's three searches).</summary>
    public string? Phrase { get; init; }

    public int? Rows { get; init; }

    public Func<Protocol, bool> AppliesTo { get; init; } = _ => true;
}

public static class Scenarios
{
    private static readonly long TextFileBytes = FixtureLength("text-455k.txt", 465_920);
    private static readonly long PdfBytes = FixtureLength("document-3.4m.pdf", 3_565_158);

    public static readonly IReadOnlyList<Scenario> All =
    [
        Search("search-3112", "Author - 1", 3_112),
        Search("search-111", "Author - 100", 111),
        Search("search-11", "Author - 1000", 11),
        new("create", "create author", async (c, marker, ct) => await c.CreateAuthorAsync(marker, "Poland", ct),
            (r, marker) => r is AuthorDto a && a.Name == marker && a.Id > 0 ? null : "the created author is not the one sent")
        {
            Creates = true,
        },
        new("clone-hello", "clone \"Hello World!\" ×1", async (c, _, ct) => await c.CloneAsync("Hello World!", 1, ct),
            (r, _) => r is "Hello World!" ? null : "wrong text") { Bolanowski = "I" },
        new("clone-lorem", "clone 615 chars ×1000", async (c, _, ct) => await c.CloneAsync(PayloadOperations.LoremIpsum, 1000, ct),
            (r, _) => r is string s && s.Length == 615_000 && s.StartsWith("Lorem", StringComparison.Ordinal) ? null : "wrong text")
        {
            Bolanowski = "II",
        },
        new("int-max", "Int32 max", async (c, _, ct) => await c.GetIntMaxAsync(ct),
            (r, _) => r is int.MaxValue ? null : "wrong value") { Bolanowski = "III" },
        new("ints", "10,000 ints", async (c, _, ct) => await c.GetIntsAsync(10_000, ct),
            (r, _) => r is int[] { Length: 10_000 } v && v[0] == 0 && v[^1] == 9_999 ? null : "wrong ints") { Bolanowski = "IV" },
        new("sample", "small object", async (c, _, ct) => await c.GetSampleAsync(ct),
            (r, _) => r is AuthorDto { Books.Count: 3 } a && a.Name == PayloadOperations.Sample.Name ? null : "wrong sample")
        {
            Bolanowski = "V",
        },
        new("text-file", "455 KB text file", async (c, _, ct) => await c.GetTextFileAsync(ct),
            (r, _) => r is byte[] b && b.Length == TextFileBytes ? null : "wrong file length") { Bolanowski = "VI" },
        new("pdf", "3.4 MB PDF", async (c, _, ct) => await c.GetPdfAsync(ct),
            (r, _) => r is byte[] b && b.Length == PdfBytes && b.AsSpan().StartsWith("%PDF"u8) ? null : "wrong PDF") { Bolanowski = "VII" },
        new("pdf-raw", "3.4 MB PDF, native binary (REST raw, gRPC stream)",
            async (c, _, ct) => await (c.GetPdfBinaryAsync(ct) ?? throw new NotSupportedException("no binary form")),
            (r, _) => r is byte[] b && b.Length == PdfBytes && b.AsSpan().StartsWith("%PDF"u8) ? null : "wrong PDF")
        {
            AppliesTo = p => p != Protocol.GraphQL,
        },
    ];

    public static Scenario Find(string name) =>
        All.FirstOrDefault(s => s.Name.Equals(name, StringComparison.OrdinalIgnoreCase) || s.Bolanowski == name.ToUpperInvariant())
        ?? throw new UsageException($"Unknown scenario '{name}'. Known: {string.Join(", ", All.Select(s => s.Name))}, or I..VII.");

    private static Scenario Search(string name, string phrase, int rows) =>
        new(name, $"search \"{phrase}\" ({rows:N0} authors)", async (c, _, ct) => await c.SearchAuthorsAsync(phrase, null, ct),
            (r, _) => r is IReadOnlyList<AuthorDto> list && list.Count == rows ? null : $"expected {rows} authors")
        {
            Phrase = phrase,
            Rows = rows,
        };

    private static long FixtureLength(string file, long fallback)
    {
        var path = Path.Combine(ProjectPaths.RootOrCurrent, "src", "Shared.Domain", "Fixtures", file);
        return File.Exists(path) ? new FileInfo(path).Length : fallback;
    }
}
