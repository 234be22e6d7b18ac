using System.Text.Json.Serialization;

namespace ProtocolBench.Shared.Domain.Payloads;

/// <summary>
/// A clone as the REST service returns it and the typed clients read it, field for field gRPC's CloneReply; long text is
/// written in pieces (SegmentedJson).
/// </summary>
public sealed record CloneResult([property: JsonConverter(typeof(SegmentedTextConverter))] string Text);
