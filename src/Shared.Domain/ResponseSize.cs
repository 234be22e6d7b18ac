using System.Buffers;
using System.Text.Encodings.Web;
using System.Text.Json;

namespace ProtocolBench.Shared.Domain;

/// <summary>
/// The most an operation's answer can carry, in bytes of payload (text in the bytes JSON sends for it, the most any
/// protocol sends), known from its arguments alone, before it runs. Every service reserves this from its response budget with the same numbers, so every protocol
/// gets the same concurrency for the same operation.
/// </summary>
public static class ResponseSize
{
    /// <summary>
    /// A seeded author with three books is about 120 bytes of payload (about 200 in JSON): what a search or a page reserves an
    /// author before its query. Once built, a list is charged its real size (<see cref="Authors"/>).
    /// </summary>
    public const int AuthorBytes = 128;

    /// <summary>An int of 0..100,000 and its separator.</summary>
    public const int IntBytes = 7;

    /// <summary>
    /// The text repeated <paramref name="count"/> times, in the bytes JSON sends (<see cref="JsonBytes"/>): an upper bound
    /// for protobuf too. Nothing for arguments the domain refuses before it builds anything.
    /// </summary>
    public static long Clone(string? text, int? count) => text is null ? 0 : JsonBytes(text) * Repeats(text, count);

    /// <summary>
    /// What a clone holds while it is written, the bytes the response budget reserves for it: its bytes on the wire
    /// (<see cref="Clone"/>; gRPC buffers its whole message) beside the text it builds for this request alone, a .NET string
    /// of two bytes a character. 3 MiB for 1 MiB of plain text, 8 MiB for 1 MiB of control characters: charged only its
    /// 1 MiB of JSON, a burst of plain clones held 48 answers of 3 MiB each and grew a service by 300 MiB.
    /// </summary>
    public static long CloneHeld(string? text, int? count) =>
        text is null ? 0 : ((long)JsonBytes(text) + (2L * text.Length)) * Repeats(text, count);

    /// <summary>How many times a clone repeats its text; none when the domain refuses its arguments before building anything.</summary>
    private static long Repeats(string text, int? count) =>
        text.Length == 0 || text.Length > Limits.CloneTextMaxLength
            ? 0
            : Math.Clamp(count ?? 0, 0, Math.Min(Limits.CloneCountMax, Limits.CloneOutputMaxChars / text.Length));

    /// <summary>A file's name, content type and the JSON around them, with room to spare: 70 bytes for the PDF in REST, 87 in GraphQL.</summary>
    private const int FileFrameBytes = 256;

    /// <summary>
    /// A file in the most bytes any protocol sends it: base64 in JSON, four bytes for every three, and its frame. The files
    /// are read once and shared, so an answer holds nothing else of its own. Served raw, a file is its length.
    /// </summary>
    public static long File(int bytes) => ((bytes + 2L) / 3 * 4) + FileFrameBytes;

    private static readonly SearchValues<char> PlainAscii =
        SearchValues.Create(string.Concat(Enumerable.Range(' ', '~' - ' ' + 1).Select(c => (char)c).Where(c => c is not ('"' or '\\'))));

    /// <summary>The most bytes one UTF-16 unit of text can take in JSON: <c>\u0001</c>.</summary>
    public const int MaxJsonBytesPerChar = 6;

    /// <summary>
    /// The bytes of <paramref name="text"/> in a JSON string as REST and GraphQL write it (System.Text.Json's relaxed
    /// escaping: UTF-8 as is, but a control character as <c>\u0001</c>, six bytes for one, and a character outside the Basic
    /// Multilingual Plane as two such escapes, twelve bytes for four in UTF-8). Never less than its UTF-8 bytes.
    /// </summary>
    public static int JsonBytes(string text)
    {
        if (IsPlainAscii(text))
        {
            // Printable ASCII that needs no escape, as nearly all names and titles are: one byte a character.
            return text.Length;
        }

        try
        {
            return JsonEncodedText.Encode(text, JavaScriptEncoder.UnsafeRelaxedJsonEscaping).EncodedUtf8Bytes.Length;
        }
        catch (ArgumentException)
        {
            // Not valid UTF-16 (the domain refuses it): the most it could take.
            return text.Length * MaxJsonBytesPerChar;
        }
    }

    /// <summary>Printable ASCII that JSON sends as is, one byte a character: no quote, backslash or control character.</summary>
    public static bool IsPlainAscii(ReadOnlySpan<char> text) => !text.ContainsAnyExcept(PlainAscii);

    public static long Ints(int? count) => (long)Math.Clamp(count ?? 0, 0, Limits.IntsCountMax) * IntBytes;

    public static long Search(int? limit) => (long)Math.Clamp(limit ?? Limits.SearchLimitMax, 0, Limits.SearchLimitMax) * AuthorBytes;

    public static long List(int? take) => (long)Math.Clamp(take ?? Limits.ListTakeDefault, 0, Limits.ListTakeMax) * AuthorBytes;

    /// <summary>
    /// One object of a payload shape in JSON at most: <c>{"id":,"name":"","count":,"ratio":,"children":[]},</c> is 47 bytes,
    /// its name at most 21 ("deepest 1000000.7"), ids and counts of ten digits and a double of up to 24 characters.
    /// </summary>
    private const int ShapeObjectBytes = 128;

    /// <summary>A shape or a collection of them: known from the kind and the count alone; nothing for a kind the domain refuses.</summary>
    public static long Shapes(string? kind, int? count)
    {
        var shape = Domain.Shapes.ShapeOperations.Find(kind);
        return shape is null ? 0 : (long)shape.Objects * Math.Clamp(count ?? Limits.ShapeCountMax, 0, Limits.ShapeCountMax) * ShapeObjectBytes;
    }

    /// <summary>An author's JSON around its text, ids of ten digits: <c>{"id":,"name":"","country":"","books":[]},</c> is 51 bytes.</summary>
    private const int AuthorFrameBytes = 64;

    /// <summary>A book's: <c>{"id":,"authorId":,"title":"","year":},</c> with two ids of ten digits and a year of eleven is 70.</summary>
    private const int BookFrameBytes = 80;

    /// <summary>
    /// What a list of authors takes in JSON, at most: the size a search or a page is charged once it is built, because
    /// <see cref="Search"/> and <see cref="List"/> cannot know the lengths of the names before the query (an author created
    /// with a name of 100 emoji is 1,200 bytes of escapes, where a seeded one is about 200 bytes in all).
    /// </summary>
    public static long Authors(IReadOnlyList<AuthorDto> authors)
    {
        // Indexed, not foreach: an interface's enumerator is an allocation per author.
        long bytes = 2;
        for (var i = 0; i < authors.Count; i++)
        {
            var author = authors[i];
            bytes += AuthorFrameBytes + JsonBytes(author.Name) + JsonBytes(author.Country);
            for (var j = 0; j < author.Books.Count; j++)
            {
                bytes += BookFrameBytes + JsonBytes(author.Books[j].Title);
            }
        }

        return bytes;
    }
}
