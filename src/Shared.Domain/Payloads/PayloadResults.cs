using System.Text.Json.Serialization;

namespace ProtocolBench.Shared.Domain.Payloads;

// The shapes the REST service returns and the typed clients read; they mirror the gRPC messages field for field. Long
// text and files are written in pieces (SegmentedJson).
public sealed record CloneResult([property: JsonConverter(typeof(SegmentedTextConverter))] string Text);

public sealed record IntMaxResult(int Value);

public sealed record IntsResult(int[] Values);

public sealed record FilePayload(string Name, string ContentType, [property: JsonConverter(typeof(SegmentedBase64Converter))] byte[] Data);
