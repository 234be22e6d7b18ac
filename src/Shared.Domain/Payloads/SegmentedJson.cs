using System.Text.Json;
using System.Text.Json.Serialization;

namespace ProtocolBench.Shared.Domain.Payloads;

/// <summary>
/// Long text that needs escaping, and files, written to JSON in pieces. Written whole, a 1 MiB text of control characters
/// asks its writer for one 6 MiB span and System.Text.Json for a 12 MiB escape buffer, and such sizes come from the shared
/// array pools, which keep them per thread for a minute or more: +200 MiB after a burst, against +20 in pieces. Measured
/// in the services (h2load, old and new build interleaved): the PDF's base64 in pieces of 192,000 bytes as fast as whole
/// (REST 0.98× [0.86–1.04], GraphQL 0.98× [0.88–1.13]). Text that JSON sends as is stays whole: System.Text.Json asks for
/// six times a piece's length whatever it holds, so plain text in pieces would take a fresh 64 KiB buffer for every
/// 16 KiB it sends. Reading is System.Text.Json's own.
/// </summary>
public static class SegmentedJson
{
    /// <summary>Characters a piece: at most 6 bytes each escaped (<c>\u0001</c>), 49,152 bytes.</summary>
    public const int TextPieceChars = 8_192;

    /// <summary>Bytes a piece: a multiple of 3, 256,000 characters of base64.</summary>
    public const int Base64PieceBytes = 192_000;

    /// <summary>Whether <see cref="WriteText"/> writes this text in pieces: long, and not sent as is.</summary>
    public static bool IsWrittenInPieces(ReadOnlySpan<char> text) => text.Length > TextPieceChars && !ResponseSize.IsPlainAscii(text);

    public static void WriteText(Utf8JsonWriter writer, ReadOnlySpan<char> text)
    {
        if (!IsWrittenInPieces(text))
        {
            writer.WriteStringValue(text);
            return;
        }

        for (var start = 0; start < text.Length; start += TextPieceChars)
        {
            var length = Math.Min(TextPieceChars, text.Length - start);
            writer.WriteStringValueSegment(text.Slice(start, length), isFinalSegment: start + length == text.Length);
        }
    }

    public static void WriteBase64(Utf8JsonWriter writer, ReadOnlySpan<byte> bytes)
    {
        if (bytes.Length <= Base64PieceBytes)
        {
            writer.WriteBase64StringValue(bytes);
            return;
        }

        for (var start = 0; start < bytes.Length; start += Base64PieceBytes)
        {
            var length = Math.Min(Base64PieceBytes, bytes.Length - start);
            writer.WriteBase64StringSegment(bytes.Slice(start, length), isFinalSegment: start + length == bytes.Length);
        }
    }
}

/// <summary>A string property written by <see cref="SegmentedJson.WriteText"/>.</summary>
public sealed class SegmentedTextConverter : JsonConverter<string>
{
    public override string? Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options) => reader.GetString();

    public override void Write(Utf8JsonWriter writer, string value, JsonSerializerOptions options) => SegmentedJson.WriteText(writer, value);
}

/// <summary>A byte[] property (or every byte[] of a serializer) written as base64 by <see cref="SegmentedJson.WriteBase64"/>.</summary>
public sealed class SegmentedBase64Converter : JsonConverter<byte[]>
{
    public override byte[]? Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options) =>
        reader.TokenType == JsonTokenType.Null ? null : reader.GetBytesFromBase64();

    public override void Write(Utf8JsonWriter writer, byte[] value, JsonSerializerOptions options) => SegmentedJson.WriteBase64(writer, value);
}
