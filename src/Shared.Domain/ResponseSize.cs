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
    /// <summary>A seeded author with three books is about 120 bytes of payload.</summary>
    public const int AuthorBytes = 128;

    /// <summary>An int of 0..100,000 and its separator.</summary>
    public const int IntBytes = 7;

    /// <summary>
    /// The text repeated <paramref name="count"/> times, in the bytes JSON sends (<see cref="JsonBytes"/>): an upper bound
    /// for protobuf too. Nothing for arguments the domain refuses before it builds anything.
    /// </summary>
    public static long Clone(string? text, int? count)
    {
        if (string.IsNullOrEmpty(text) || text.Length > Limits.CloneTextMaxLength)
        {
            return 0;
        }

        var repeats = Math.Clamp(count ?? 0, 0, Math.Min(Limits.CloneCountMax, Limits.CloneOutputMaxChars / text.Length));
        return (long)JsonBytes(text) * repeats;
    }

    /// <summary>The most bytes one UTF-16 unit of text can take in JSON: <c>\u0001</c>.</summary>
    public const int MaxJsonBytesPerChar = 6;

    /// <summary>
    /// The bytes of <paramref name="text"/> in a JSON string as REST and GraphQL write it (System.Text.Json's relaxed
    /// escaping: UTF-8 as is, but a control character as <c>\u0001</c>, six bytes for one, and a character outside the Basic
    /// Multilingual Plane as two such escapes, twelve bytes for four in UTF-8). Never less than its UTF-8 bytes.
    /// </summary>
    public static int JsonBytes(string text)
    {
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

    public static long Ints(int? count) => (long)Math.Clamp(count ?? 0, 0, Limits.IntsCountMax) * IntBytes;

    public static long Search(int? limit) => (long)Math.Clamp(limit ?? Limits.SearchLimitMax, 0, Limits.SearchLimitMax) * AuthorBytes;

    public static long List(int? take) => (long)Math.Clamp(take ?? Limits.ListTakeDefault, 0, Limits.ListTakeMax) * AuthorBytes;
}
