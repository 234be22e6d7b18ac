using System.Net.Sockets;
using System.Text.Json;

namespace ProtocolBench.Lab.Scenarios;

/// <summary>What became of one request. <see cref="Definite"/>: the service certainly did not apply it (a refusal, not a lost answer).</summary>
public readonly record struct Outcome(OutcomeKind Kind, string? Error = null, bool Definite = false)
{
    public static readonly Outcome Ok = new(OutcomeKind.Ok);

    /// <summary>A response that arrived and failed its check: the service answered, so it may have applied the request.</summary>
    public static readonly Outcome InvalidResponse = new(OutcomeKind.Failed, "invalid response");

    public static Outcome Classify(Exception e, CancellationToken stop, CancellationToken attempt) => e switch
    {
        InvalidDataException or InvalidCastException => InvalidResponse,
        OperationCanceledException when stop.IsCancellationRequested => new(OutcomeKind.Cancelled, "cancelled"),
        OperationCanceledException when attempt.IsCancellationRequested || e.InnerException is TimeoutException => new(OutcomeKind.TimedOut, "timeout"),
        OperationCanceledException => new(OutcomeKind.Failed, "aborted"),
        ProtocolClientException { Code: "DEADLINE_EXCEEDED" } => new(OutcomeKind.TimedOut, "timeout"),
        ProtocolClientException { Code: "CANCELLED" } when stop.IsCancellationRequested => new(OutcomeKind.Cancelled, "cancelled"),
        ProtocolClientException p => new(OutcomeKind.Failed, $"{p.ProtocolStatus} {p.Code}".Trim(), IsRefusal(p.Code)),
        HttpRequestException h => new(OutcomeKind.Failed, $"transport {h.HttpRequestError}"),
        IOException or SocketException => new(OutcomeKind.Failed, "transport io"),
        JsonException => new(OutcomeKind.Failed, "invalid json"),
        NotSupportedException => new(OutcomeKind.Failed, "not supported", Definite: true),
        _ => new(OutcomeKind.Failed, e.GetType().Name),
    };

    /// <summary>A failure another client stack reported by its code (HTTP_404, NOT_FOUND, transport): a refusal is definite.</summary>
    public static Outcome Failure(string code) => new(OutcomeKind.Failed, code, IsRefusal(code));

    // A 4xx-like refusal happens before any write (docs/limits-and-errors.md); a 5xx, UNAVAILABLE or a reset may or may not have committed.
    private static bool IsRefusal(string code) =>
        code is "INVALID_ARGUMENT" or "NOT_FOUND" or "ALREADY_EXISTS" or "FAILED_PRECONDITION" or "PERMISSION_DENIED"
            or "UNAUTHENTICATED" or "RESOURCE_EXHAUSTED" or "OUT_OF_RANGE" or "UNIMPLEMENTED"
        || (code.StartsWith("HTTP_4", StringComparison.Ordinal) && code != "HTTP_408");
}
