using System.Text.Json;
using System.Text.Json.Serialization;

namespace ProtocolBench.Lab.Scenarios;

/// <summary>A scenario in every results file is its name (search-3112); the catalogue holds the rest.</summary>
public sealed class ScenarioJsonConverter : JsonConverter<Scenario>
{
    public override Scenario Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options)
    {
        var name = reader.GetString() ?? "";
        return Catalogue.Find(name) ?? throw new JsonException($"unknown scenario '{name}'");
    }

    public override void Write(Utf8JsonWriter writer, Scenario value, JsonSerializerOptions options) => writer.WriteStringValue(value.Name);
}
