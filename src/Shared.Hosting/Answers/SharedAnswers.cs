using System.Collections.Concurrent;
using System.Text.Json;
using Microsoft.AspNetCore.Http.Timeouts;
using ProtocolBench.Shared.Hosting.Budget;

namespace ProtocolBench.Shared.Hosting.Answers;

/// <summary>
/// The answers that are the same for every caller, the files: each encoding of a file (its base64, a whole JSON answer) is
/// built once, kept, and written to every reader from that one copy, a piece at a time as the reader's connection takes it
/// (<see cref="WriteAsync"/>, <see cref="SplicingWriter"/>). A reader then holds Kestrel's response buffer (64 KiB) and
/// one piece, never a copy of its own, so these answers reserve nothing from the response budget, and readers at its floor
/// cannot keep other callers from the files (fault table row 93: 11 readers of the PDF at 40 KiB/s held the budget, and a
/// normal client's PDF got 504 after 30 s). What a reader keeps is bounded by its connection's own limits: Kestrel's
/// minimum data rate (240 B/s after 5 s) and its limit on connections and streams.
/// </summary>
public sealed class SharedAnswers(PayloadFiles files, MemoryReclaimer reclaimer)
{
    /// <summary>Bytes handed to the connection at a time: Kestrel's response buffer (MaxResponseBufferSize) holds one.</summary>
    public const int PieceBytes = 64 * 1024;

    private readonly ConcurrentDictionary<(byte[] File, object Encoding), byte[]> _encoded = new();

    /// <summary>Whether <paramref name="bytes"/> is one of the files themselves (by reference: the copy every caller gets).</summary>
    public bool Shares(byte[] bytes) =>
        files.IsAvailable && (ReferenceEquals(bytes, files.Pdf) || ReferenceEquals(bytes, files.Text));

    /// <summary>A file's base64 (RFC 4648, padded) as UTF-8, encoded once.</summary>
    public byte[] Base64(byte[] file) => _encoded.GetOrAdd((file, nameof(Base64)), static key =>
    {
        var encoded = new byte[System.Buffers.Text.Base64.GetMaxEncodedToUtf8Length(key.File.Length)];
        System.Buffers.Text.Base64.EncodeToUtf8(key.File, encoded, out _, out var written);
        return written == encoded.Length ? encoded : encoded[..written];
    });

    /// <summary>A file as a JSON answer, serialized once with <paramref name="options"/> (the service's own, so the bytes are those it would write).</summary>
    public byte[] Json(FilePayload file, JsonSerializerOptions options) =>
        _encoded.GetOrAdd((file.Data, options), static (_, state) => JsonSerializer.SerializeToUtf8Bytes(state.file, state.options), (file, options));

    /// <summary>
    /// Writes <paramref name="bytes"/> to <paramref name="writer"/> a piece at a time, each once the connection has taken
    /// the one before (Kestrel's flush waits while its response buffer is full); stops when the reader has gone. A reader
    /// that left before the end (or was ended: Kestrel's minimum rate) leaves its connection's buffers idle, and a burst of
    /// such readers leaves them resident, so their memory is given back a second later (+66 MiB 10 s after 200 HTTP/2
    /// streams that never read, without), as after a burst that ran out of the budget.
    /// </summary>
    public async Task<FlushResult> WriteAsync(PipeWriter writer, ReadOnlyMemory<byte> bytes, CancellationToken cancellationToken)
    {
        var result = default(FlushResult);
        try
        {
            for (var start = 0; start < bytes.Length && !result.IsCompleted && !result.IsCanceled; start += PieceBytes)
            {
                result = await writer.WriteAsync(bytes.Slice(start, Math.Min(PieceBytes, bytes.Length - start)), cancellationToken);
            }
        }
        catch (Exception e) when (e is OperationCanceledException or IOException or InvalidOperationException)
        {
            reclaimer.ReclaimSoon("Readers of shared answers left before the end");
            throw;
        }

        if (result.IsCompleted || result.IsCanceled)
        {
            reclaimer.ReclaimSoon("Readers of shared answers left before the end");
        }

        return result;
    }

    /// <summary>
    /// A shared answer is sent at its reader's pace, bounded by Kestrel's minimum rate, not by the request timeout (30 s),
    /// which answers 504 to a handler that takes too long and would cut off a reader taking the PDF at 64 KiB/s (72 s):
    /// the same rule as a reserved answer's once it has started.
    /// </summary>
    public static void StopRequestTimeout(HttpContext http) => http.Features.Get<IHttpRequestTimeoutFeature>()?.DisableTimeout();
}
