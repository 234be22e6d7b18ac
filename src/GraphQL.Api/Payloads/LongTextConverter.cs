using System.Text.Json.Serialization;

namespace ProtocolBench.GraphQL.Api.Payloads;

internal sealed class LongTextConverter : JsonConverter<LongText>
{
    public override LongText Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options) => throw new NotSupportedException();

    public override void Write(Utf8JsonWriter writer, LongText value, JsonSerializerOptions options) => SegmentedJson.WriteText(writer, value.Text);
}
