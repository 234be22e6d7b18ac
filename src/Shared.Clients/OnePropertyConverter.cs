using System.Text.Json;
using System.Text.Json.Serialization;
using System.Text.Json.Serialization.Metadata;

namespace ProtocolBench.Shared.Clients;

/// <summary>
/// Reads <see cref="OneProperty{T}"/>. Written by hand: System.Text.Json binds a property by its name, and these names
/// are the REST service's own, which no description carries.
/// </summary>
internal sealed class OnePropertyConverter : JsonConverterFactory
{
    public override bool CanConvert(Type typeToConvert) =>
        typeToConvert.IsGenericType && typeToConvert.GetGenericTypeDefinition() == typeof(OneProperty<>);

    public override JsonConverter CreateConverter(Type typeToConvert, JsonSerializerOptions options) =>
        (JsonConverter)Activator.CreateInstance(typeof(Converter<>).MakeGenericType(typeToConvert.GetGenericArguments()[0]))!;

    private sealed class Converter<T> : JsonConverter<OneProperty<T>>
    {
        public override OneProperty<T> Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options)
        {
            Expect(in reader, JsonTokenType.StartObject);
            reader.Read();
            Expect(in reader, JsonTokenType.PropertyName);
            reader.Read();
            var isNull = reader.TokenType == JsonTokenType.Null;
            var value = isNull ? default : JsonSerializer.Deserialize(ref reader, (JsonTypeInfo<T>)options.GetTypeInfo(typeof(T)));
            reader.Read();
            Expect(in reader, JsonTokenType.EndObject);
            return new(value, isNull);
        }

        public override void Write(Utf8JsonWriter writer, OneProperty<T> value, JsonSerializerOptions options) =>
            throw new NotSupportedException("An answer is only read.");

        private static void Expect(in Utf8JsonReader reader, JsonTokenType token)
        {
            if (reader.TokenType != token)
            {
                throw new JsonException($"Expected an object of one property; found {reader.TokenType} where {token} belongs.");
            }
        }
    }
}
