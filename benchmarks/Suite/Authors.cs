using BenchmarkDotNet.Attributes;
using ProtocolBench.Shared.Domain.Authors;

namespace ProtocolBench.Benchmarks.Suite;

/// <summary>
/// The Śliwa &amp; Pańczyk domain (SPEC §5): search 3,112 / 111 / 11 authors with their books, get one, list 100,
/// create. Authors created here are deleted again in GlobalCleanup (and leftovers of an interrupted run at the start).
/// </summary>
public class Authors : ProtocolBenchmark
{
    /// <summary>Contains no "Author - ", so what this class creates never changes the search results.</summary>
    public const string CreatedName = "ProtocolBench created writer";
    public const string CreatedCountry = "Poland";
    public const int OneId = 6000;

    private readonly List<int> _created = [];

    [Benchmark]
    public async Task<IReadOnlyList<AuthorDto>> Search3112() =>
        Expect.Authors(await Client.SearchAuthorsAsync("Author - 1"), 3112, 1, 12000, "search \"Author - 1\"");

    [Benchmark]
    public async Task<IReadOnlyList<AuthorDto>> Search111() =>
        Expect.Authors(await Client.SearchAuthorsAsync("Author - 100"), 111, 100, 10099, "search \"Author - 100\"");

    [Benchmark]
    public async Task<IReadOnlyList<AuthorDto>> Search11() =>
        Expect.Authors(await Client.SearchAuthorsAsync("Author - 1000"), 11, 1000, 10009, "search \"Author - 1000\"");

    [Benchmark]
    public async Task<AuthorDto> GetOne()
    {
        var author = await Client.GetAuthorAsync(OneId);
        return author.Id == OneId && author.Books.Count == (OneId % 3) + 1 ? author : throw Expect.Wrong("get author", $"got {author}");
    }

    [Benchmark]
    public async Task<IReadOnlyList<AuthorDto>> List100() =>
        Expect.Authors(await Client.ListAuthorsAsync(0, 100), 100, 1, 100, "list 100");

    [Benchmark]
    public async Task<AuthorDto> Create()
    {
        var author = await Client.CreateAuthorAsync(CreatedName, CreatedCountry);
        if (author.Id <= 0 || author.Name != CreatedName || author.Country != CreatedCountry || author.Books.Count != 0)
        {
            throw Expect.Wrong("create author", $"got {author}");
        }

        _created.Add(author.Id);
        return author;
    }

    protected override async Task VerifyAsync()
    {
        await DeleteAsync((await Client.SearchAuthorsAsync(CreatedName, 5000)).Select(a => a.Id).ToList());
        Expect.SeededAuthors(await Client.SearchAuthorsAsync("Author - 1"), Ids("Author - 1"), "search \"Author - 1\"");
        Expect.SeededAuthors(await Client.SearchAuthorsAsync("Author - 100"), Ids("Author - 100"), "search \"Author - 100\"");
        Expect.SeededAuthors(await Client.SearchAuthorsAsync("Author - 1000"), Ids("Author - 1000"), "search \"Author - 1000\"");
        Expect.SeededAuthors(await Client.ListAuthorsAsync(0, 100), Enumerable.Range(1, 100).ToList(), "list 100");
        Expect.SeededAuthor(await Client.GetAuthorAsync(OneId), OneId, "get author");
    }

    protected override async Task CleanupAsync()
    {
        await DeleteAsync(_created);
        _created.Clear();
    }

    private static List<int> Ids(string phrase) =>
        Enumerable.Range(1, 12_000).Where(i => $"Author - {i}".Contains(phrase, StringComparison.Ordinal)).ToList();

    private async Task DeleteAsync(IReadOnlyList<int> ids)
    {
        // Four at a time: thousands of creates must not make cleanup the longest phase.
        await Parallel.ForEachAsync(ids, new ParallelOptions { MaxDegreeOfParallelism = 4 }, async (id, ct) =>
            await Client.DeleteAuthorAsync(id, ct));
    }
}
