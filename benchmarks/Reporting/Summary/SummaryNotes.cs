namespace ProtocolBench.Benchmarks.Reporting.Summary;

/// <summary>The summary's notes: how every number was measured and checked, and where the four services differ.</summary>
internal static class SummaryNotes
{
    public static string[] For(BenchmarkRun run) =>
    [
        "Every timed invocation is one complete request and response, checked before it counts (value, length and first, middle " +
        "and last element); full responses (SHA-256 of the files, every author against the seed) are verified once per cell before timing.",
        "Client and services run on one machine over loopback unless --external was used; the paper used two machines over a LAN, " +
        "so our absolute times are lower and the protocol overheads weigh relatively more.",
        "Design (docs/methodology.md, \"Rounds and verdicts\"): every cell of a row still open is measured once per round by " +
        "BenchmarkDotNet (its own reports are in the round folders); within a round the protocols of one row run back to back, rows " +
        "and protocols in a shuffled order; service restarts: " + run.Restarts + ".",
        "Authors created by \"Create author\" are deleted after each cell.",
        "Where the four services differ (everything else is the same code in Shared.Domain, the same validation and the same " +
        "single SQL query per read): GraphQL POSTs a query document on every call, so its requests are larger; GraphQL is served " +
        "by graphql-dotnet 8.8.5 through the project's own GraphQL-over-HTTP endpoint, because HotChocolate is not available " +
        "from this build's package source; GraphQL resolvers call the same single-statement read as REST and gRPC instead of " +
        "DataLoaders, so a query that omits books still loads them; gRPC adds HTTP/2 and protobuf framing and, over plain HTTP, " +
        "uses h2c while REST and GraphQL use HTTP/1.1 (see HTTP versions above); files travel as base64 in JSON for REST and " +
        "GraphQL (a third larger) and as a protobuf bytes field for gRPC, and only REST (/raw), gRPC and SignalR (StreamPdf, " +
        "64 KiB chunks) have a binary form. SignalR keeps one WebSocket (an upgraded HTTP/1.1 connection) per client and " +
        "frames each call as a hub message, JSON (files as base64: the SignalR column) or MessagePack (files as binary: the " +
        "SignalR MessagePack column), both answered by the one SignalR service, a large answer in frames of 64 KiB; " +
        "its floor is GET /baseline on its port over HTTP/1.1, the request that would open its socket; it cannot compress " +
        "(--compression leaves its bytes as they are), and a hub message over 1 MiB closes its sender's socket where the " +
        "others refuse only that request. " +
        "Every service encodes each file once (its base64, REST's whole JSON answer) and writes each reader that one copy " +
        "in pieces of 64 KiB, in the bytes its library would write, so file times include no per-call encoding; SignalR " +
        "sends such pieces as fragments of one WebSocket message, which its JavaScript clients need whole. REST's files " +
        "carry Content-Length where its other JSON answers are chunked. gRPC checks each request's fields as sent before " +
        "protobuf reads them (a number past Int32 or a field of another wire type is INVALID_ARGUMENT, as on the others): one " +
        "more pass over each request's bytes. " +
        "GraphQL's shape documents select every field on every level of the shape, but not the empty children of its last " +
        "level (a list cannot be selected without a selection below it, one level deeper than the shape), so its objects " +
        "of the last level leave out the 14 bytes of \"children\":[] that REST and SignalR send.",
    ];
}
