using System.Text.Json;
using System.Text.Json.Serialization;

namespace ProtocolBench.Shared.Hosting.Answers;

/// <summary>
/// Every byte[] of a serializer's answers as base64 (GraphQL's, the JSON hub's): a file by reference to the copy every
/// caller shares, spliced into the answer being written (<see cref="SplicingWriter.Current"/>), so a reader holds no copy
/// of its own; other bytes, or where nothing splices, in pieces (<see cref="SegmentedJson"/>).
/// </summary>
public sealed class SharedBase64Converter : JsonConverter<byte[]>
{
    public override byte[]? Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options) =>
        reader.TokenType == JsonTokenType.Null ? null : reader.GetBytesFromBase64();

    public override void Write(Utf8JsonWriter writer, byte[] value, JsonSerializerOptions options)
    {
        if (SplicingWriter.Current?.TryWriteBase64(writer, value) != true)
        {
            SegmentedJson.WriteBase64(writer, value);
        }
    }
}
