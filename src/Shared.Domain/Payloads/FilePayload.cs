namespace ProtocolBench.Shared.Domain.Payloads;

/// <summary>
/// A file as REST, GraphQL and SignalR return it (gRPC's FileReply, field for field). Its bytes are base64 in JSON; a
/// service that serializes it per call writes them from the copy every caller shares, by its serializer's byte[] converter.
/// </summary>
public sealed record FilePayload(string Name, string ContentType, byte[] Data);
