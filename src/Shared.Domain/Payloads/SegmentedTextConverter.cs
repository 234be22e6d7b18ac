using System.Text.Json;
using System.Text.Json.Serialization;

namespace ProtocolBench.Shared.Domain.Payloads;

/// <summary>A string property written by <see cref="SegmentedJson.WriteText"/>.</summary>
public sealed class SegmentedTextConverter : JsonConverter<string>
{
    public override string? Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options) => reader.GetString();

    public override void Write(Utf8JsonWriter writer, string value, JsonSerializerOptions options) => SegmentedJson.WriteText(writer, value);
}
