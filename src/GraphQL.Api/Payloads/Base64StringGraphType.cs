namespace ProtocolBench.GraphQL.Api.Payloads;

/// <summary>
/// Bytes as a base64 JSON string, written straight from the byte[] by System.Text.Json exactly as REST writes
/// <see cref="FilePayload.Data"/>: no intermediate string, no escaping. Named like HotChocolate's scalar.
/// </summary>
public sealed class Base64StringGraphType : ScalarGraphType
{
    public Base64StringGraphType()
    {
        Name = "Base64String";
        Description = "Bytes as a base64 string (RFC 4648, padded).";
    }

    public override object? Serialize(object? value) => value switch
    {
        null => null,
        byte[] bytes => bytes,
        _ => ThrowSerializationError(value),
    };

    public override object? ParseValue(object? value) => value switch
    {
        null => null,
        string text => Convert.FromBase64String(text),
        byte[] bytes => bytes,
        _ => ThrowValueConversionError(value),
    };

    public override object? ParseLiteral(GraphQLParser.AST.GraphQLValue value) => value switch
    {
        GraphQLParser.AST.GraphQLNullValue => null,
        GraphQLParser.AST.GraphQLStringValue text => Convert.FromBase64String((string)text.Value),
        _ => ThrowLiteralConversionError(value),
    };
}
