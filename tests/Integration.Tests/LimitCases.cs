namespace ProtocolBench.Integration.Tests;

/// <summary>
/// Every limit of docs/limits-and-errors.md just inside (accepted) and just outside (refused with INVALID_ARGUMENT and the field named).
/// The same table runs against every protocol and transport.
/// </summary>
public sealed record LimitCase(string Name, bool Accepted, string? Field, Func<IProtocolClient, CancellationToken, Task> Call)
{
    public override string ToString() => Name;

    public static readonly string Text1024 = new('x', 1024);

    public static readonly IReadOnlyList<LimitCase> All =
    [
        new("clone text 1024 chars", true, null, (c, t) => c.CloneAsync(Text1024, 1, t)),
        new("clone text 1025 chars", false, "text", (c, t) => c.CloneAsync(Text1024 + "x", 1, t)),
        new("clone text empty", false, "text", (c, t) => c.CloneAsync("", 1, t)),
        new("clone text missing", false, "text", (c, t) => c.CloneAsync(null, 1, t)),
        new("clone count 0", true, null, (c, t) => c.CloneAsync("a", 0, t)),
        new("clone count 100000", true, null, (c, t) => c.CloneAsync("a", Limits.CloneCountMax, t)),
        new("clone count 100001", false, "count", (c, t) => c.CloneAsync("a", Limits.CloneCountMax + 1, t)),
        new("clone count -1", false, "count", (c, t) => c.CloneAsync("a", -1, t)),
        new("clone count missing", false, "count", (c, t) => c.CloneAsync("a", null, t)),
        new("clone output 1024x1024 chars", true, null, (c, t) => c.CloneAsync(Text1024, 1024, t)),
        new("clone output 1024x1025 chars", false, "count", (c, t) => c.CloneAsync(Text1024, 1025, t)),
        new("clone output int overflow", false, "count", (c, t) => c.CloneAsync(Text1024, int.MaxValue, t)),
        new("ints count 0", true, null, (c, t) => c.GetIntsAsync(0, t)),
        new("ints count 100000", true, null, (c, t) => c.GetIntsAsync(Limits.IntsCountMax, t)),
        new("ints count 100001", false, "count", (c, t) => c.GetIntsAsync(Limits.IntsCountMax + 1, t)),
        new("ints count -1", false, "count", (c, t) => c.GetIntsAsync(-1, t)),
        new("ints count int.MaxValue", false, "count", (c, t) => c.GetIntsAsync(int.MaxValue, t)),
        new("search phrase 100 chars", true, null, (c, t) => c.SearchAuthorsAsync(new string('q', 100), null, t)),
        new("search phrase 101 chars", false, "phrase", (c, t) => c.SearchAuthorsAsync(new string('q', 101), null, t)),
        new("search phrase empty", false, "phrase", (c, t) => c.SearchAuthorsAsync("", null, t)),
        new("search phrase only spaces", false, "phrase", (c, t) => c.SearchAuthorsAsync("   ", null, t)),
        new("search phrase only a zero-width space", false, "phrase", (c, t) => c.SearchAuthorsAsync("\u200B", null, t)),
        new("search phrase with spaces around", true, null, (c, t) => c.SearchAuthorsAsync(" Author - 1000 ", null, t)),
        new("search limit 1", true, null, (c, t) => c.SearchAuthorsAsync("Author - 1", 1, t)),
        new("search limit 5000", true, null, (c, t) => c.SearchAuthorsAsync("Author - 1000", Limits.SearchLimitMax, t)),
        new("search limit 5001", false, "limit", (c, t) => c.SearchAuthorsAsync("Author - 1", Limits.SearchLimitMax + 1, t)),
        new("search limit 0", false, "limit", (c, t) => c.SearchAuthorsAsync("Author - 1", 0, t)),
        new("list take 1", true, null, (c, t) => c.ListAuthorsAsync(0, 1, t)),
        new("list take 1000", true, null, (c, t) => c.ListAuthorsAsync(0, Limits.ListTakeMax, t)),
        new("list take 1001", false, "take", (c, t) => c.ListAuthorsAsync(0, Limits.ListTakeMax + 1, t)),
        new("list take 0", false, "take", (c, t) => c.ListAuthorsAsync(0, 0, t)),
        new("list skip 0", true, null, (c, t) => c.ListAuthorsAsync(0, 10, t)),
        new("list skip -1", false, "skip", (c, t) => c.ListAuthorsAsync(-1, 10, t)),
        new("get id 0", false, "id", (c, t) => c.GetAuthorAsync(0, t)),
        new("create name 201 chars", false, "name", (c, t) => c.CreateAuthorAsync(new string('n', 201), "Poland", t)),
        new("create name empty", false, "name", (c, t) => c.CreateAuthorAsync("", "Poland", t)),
        new("create name missing", false, "name", (c, t) => c.CreateAuthorAsync(null, "Poland", t)),
        new("create name with NUL", false, "name", (c, t) => c.CreateAuthorAsync("a\0b", "Poland", t)),
        new("create name with newline", false, "name", (c, t) => c.CreateAuthorAsync("a\nb", "Poland", t)),
        new("create name only spaces", false, "name", (c, t) => c.CreateAuthorAsync("   ", "Poland", t)),
        new("create name only U+200B and U+FEFF", false, "name", (c, t) => c.CreateAuthorAsync("\u200B\uFEFF", "Poland", t)),
        new("create country only an ideographic space", false, "country", (c, t) => c.CreateAuthorAsync("Valid", "\u3000", t)),
        new("create country 101 chars", false, "country", (c, t) => c.CreateAuthorAsync("Valid", new string('c', 101), t)),
        new("create country empty", false, "country", (c, t) => c.CreateAuthorAsync("Valid", "", t)),
        new("update name 201 chars", false, "name", (c, t) => c.UpdateAuthorAsync(1, new string('n', 201), "Poland", t)),
        new("update country with tab", false, "country", (c, t) => c.UpdateAuthorAsync(1, "Author - 1", "Pol\tand", t)),
        new("shape id 1000000", true, null, (c, t) => c.GetShapeAsync("small", Limits.ShapeIdMax, t)),
        new("shape id 1000001", false, "id", (c, t) => c.GetShapeAsync("small", Limits.ShapeIdMax + 1, t)),
        new("shape id 0", false, "id", (c, t) => c.GetShapeAsync("deep", 0, t)),
        new("shape kind unknown", false, "kind", (c, t) => c.GetShapeAsync("huge", 1, t)),
        new("shape kind in capitals", false, "kind", (c, t) => c.GetShapeAsync("LARGE", 1, t)),
        new("shapes count 100", true, null, (c, t) => c.ListShapesAsync("deepest", Limits.ShapeCountMax, t)),
        new("shapes count 101", false, "count", (c, t) => c.ListShapesAsync("small", Limits.ShapeCountMax + 1, t)),
        new("shapes count 0", false, "count", (c, t) => c.ListShapesAsync("small", 0, t)),
        new("shapes kind unknown", false, "kind", (c, t) => c.ListShapesAsync("tiny", null, t)),
    ];
}
