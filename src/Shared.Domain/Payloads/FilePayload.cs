using System.Text.Json.Serialization;

namespace ProtocolBench.Shared.Domain.Payloads;

/// <summary>A file as REST, GraphQL and SignalR return it (gRPC's FileReply, field for field); its bytes are written in pieces (SegmentedJson).</summary>
public sealed record FilePayload(string Name, string ContentType, [property: JsonConverter(typeof(SegmentedBase64Converter))] byte[] Data);
