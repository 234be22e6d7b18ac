using System.Text;
using System.Text.Json;

namespace ProtocolBench.Shared.Domain.Payloads;

/// <summary>
/// Long text and files written to JSON in pieces. Written whole, 1 MiB of text asks its writer for one span of up to six
/// times its length (3 MiB plain, 6 MiB of control characters) and System.Text.Json for an escape buffer of twice that,
/// and such sizes come from the shared array pools, which keep them per thread for a minute or more: +200 MiB after a
/// burst, against +20 in pieces. The writer asks for room for the worst case of each piece (six bytes a character), so
/// plain ASCII goes as UTF-8 pieces of 4,000 bytes, which need exactly their length and fill Kestrel's 4 KiB buffers
/// (600 KB: 0.09 ms, as whole), and other text in pieces of 8,192 characters. Measured in the services (h2load, old and
/// new build interleaved): the PDF's base64 in pieces of 192,000 bytes as fast as whole (REST 0.98× [0.86–1.04], GraphQL
/// 0.98× [0.88–1.13]). Reading is System.Text.Json's own.
/// </summary>
public static class SegmentedJson
{
    /// <summary>Characters a piece of text that needs escaping: at most 6 bytes each (<c>\u0001</c>), 49,152 bytes.</summary>
    public const int TextPieceChars = 8_192;

    /// <summary>Bytes a piece of plain ASCII: with the quote, within one 4 KiB buffer.</summary>
    public const int AsciiPieceBytes = 4_000;

    /// <summary>Bytes a piece: a multiple of 3, 256,000 characters of base64.</summary>
    public const int Base64PieceBytes = 192_000;

    /// <summary>Whether <see cref="WriteText"/> writes this text in pieces.</summary>
    public static bool IsWrittenInPieces(ReadOnlySpan<char> text) => text.Length > TextPieceChars;

    public static void WriteText(Utf8JsonWriter writer, ReadOnlySpan<char> text)
    {
        if (!IsWrittenInPieces(text))
        {
            writer.WriteStringValue(text);
        }
        else if (ResponseSize.IsPlainAscii(text))
        {
            Span<byte> piece = stackalloc byte[AsciiPieceBytes];
            for (var start = 0; start < text.Length; start += AsciiPieceBytes)
            {
                var length = Math.Min(AsciiPieceBytes, text.Length - start);
                Ascii.FromUtf16(text.Slice(start, length), piece, out var written);
                writer.WriteStringValueSegment(piece[..written], isFinalSegment: start + length == text.Length);
            }
        }
        else
        {
            for (var start = 0; start < text.Length; start += TextPieceChars)
            {
                var length = Math.Min(TextPieceChars, text.Length - start);
                writer.WriteStringValueSegment(text.Slice(start, length), isFinalSegment: start + length == text.Length);
            }
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
