using System.Text.Json.Serialization;

namespace ProtocolBench.GraphQL.Api.Payloads;

[JsonConverter(typeof(LongTextConverter))]
public sealed record LongText(string Text);
