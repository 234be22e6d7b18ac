namespace ProtocolBench.GraphQL.Api.Payloads;

/// <summary>
/// GraphQL's String, with long values handed to the serializer as <see cref="LongText"/>, which writes them in pieces
/// (<see cref="SegmentedJson"/>) as REST writes a clone: graphql-dotnet writes a string whole, in one span. Replaces the
/// built-in String by name, so the schema is unchanged.
/// </summary>
public sealed class SegmentedStringGraphType : StringGraphType
{
    public SegmentedStringGraphType() => Name = "String";

    public override object? Serialize(object? value) =>
        value is string text && SegmentedJson.IsWrittenInPieces(text) ? new LongText(text) : base.Serialize(value);
}
