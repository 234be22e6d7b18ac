using System.Text.Json.Serialization;
using GraphQL.SystemTextJson;

namespace ProtocolBench.GraphQL.Api;

/// <summary>
/// Reads a request's <c>variables</c> and <c>extensions</c> in place of graphql-dotnet's InputsJsonConverter, with two
/// rules of the other protocols. A name given twice takes its last value, as System.Text.Json does for REST's bodies and
/// protobuf for gRPC's fields (the library's converter adds to a dictionary, and the duplicate was an HTTP 500). A number
/// is refused by its length before it is converted, with a message that does not repeat it (the library parses any length
/// into a BigInteger, in time quadratic in the digits: 3.6 s of CPU for 400,000 of them).
/// </summary>
internal sealed class RequestInputsConverter : JsonConverter<Inputs>
{
    /// <summary>Longer than any Int, Float or ID the schema takes: a double's shortest exact form has at most 24 characters.</summary>
    public const int MaxNumberChars = 64;

    public override Inputs Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options) =>
        ReadObject(ref reader, "").ToInputs();

    public override void Write(Utf8JsonWriter writer, Inputs value, JsonSerializerOptions options) =>
        JsonSerializer.Serialize<IReadOnlyDictionary<string, object?>>(writer, value, options);

    private static Dictionary<string, object?> ReadObject(ref Utf8JsonReader reader, string path)
    {
        if (reader.TokenType != JsonTokenType.StartObject)
        {
            throw new JsonException();
        }

        var values = new Dictionary<string, object?>();
        while (reader.Read() && reader.TokenType != JsonTokenType.EndObject)
        {
            var name = reader.GetString()!;
            if (!reader.Read())
            {
                throw new JsonException();
            }

            values[name] = ReadValue(ref reader, path.Length == 0 ? name : $"{path}.{name}");
        }

        return values;
    }

    private static object? ReadValue(ref Utf8JsonReader reader, string path) => reader.TokenType switch
    {
        JsonTokenType.StartObject => ReadObject(ref reader, path),
        JsonTokenType.StartArray => ReadArray(ref reader, path),
        JsonTokenType.Number => ReadNumber(ref reader, path),
        JsonTokenType.String => reader.GetString(),
        JsonTokenType.True => true,
        JsonTokenType.False => false,
        _ => null,
    };

    private static List<object?> ReadArray(ref Utf8JsonReader reader, string path)
    {
        var items = new List<object?>();
        while (reader.Read() && reader.TokenType != JsonTokenType.EndArray)
        {
            items.Add(ReadValue(ref reader, $"{path}[{items.Count}]"));
        }

        return items;
    }

    /// <summary>The types graphql-dotnet's own converter gives, so that its scalars coerce them as before.</summary>
    private static object ReadNumber(ref Utf8JsonReader reader, string path)
    {
        var length = reader.HasValueSequence ? reader.ValueSequence.Length : reader.ValueSpan.Length;
        if (length > MaxNumberChars)
        {
            throw DomainException.Invalid(path, $"The number at {path} has {length} characters; at most {MaxNumberChars} are accepted.");
        }

        if (reader.TryGetInt32(out var i))
        {
            return i;
        }

        if (reader.TryGetInt64(out var l))
        {
            return l;
        }

        if (JsonConverterBigInteger.TryGetBigInteger(ref reader, out var big))
        {
            return big;
        }

        if (reader.TryGetDouble(out var d))
        {
            return d;
        }

        return reader.GetDecimal();
    }
}
