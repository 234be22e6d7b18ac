using ProtocolBench.Shared.Domain.Payloads;

namespace ProtocolBench.Grpc.Service.Services;

/// <summary>Bolanowski scenarios I–VII over gRPC; the work is PayloadOperations', files are served from memory without a copy.</summary>
public sealed class PayloadsService(PayloadFiles files) : Payloads.PayloadsBase
{
    public const string ServiceName = "protocolbench.v1.Payloads";

    private const int ChunkSize = 64 * 1024;

    [Operation(nameof(Operation.Clone))]
    public override Task<CloneReply> Clone(CloneRequest request, ServerCallContext context) =>
        Task.FromResult(new CloneReply { Text = PayloadOperations.Clone(request.Text, request.HasCount ? request.Count : null) });

    [Operation(nameof(Operation.GetIntMax))]
    public override Task<IntMaxReply> GetIntMax(GetIntMaxRequest request, ServerCallContext context) =>
        Task.FromResult(new IntMaxReply { Value = PayloadOperations.IntMax });

    [Operation(nameof(Operation.GetInts))]
    public override Task<IntsReply> GetInts(GetIntsRequest request, ServerCallContext context)
    {
        var reply = new IntsReply();
        reply.Values.AddRange(PayloadOperations.Ints(request.HasCount ? request.Count : null));
        return Task.FromResult(reply);
    }

    [Operation(nameof(Operation.GetSample))]
    public override Task<V1.Author> GetSample(GetSampleRequest request, ServerCallContext context) =>
        Task.FromResult(PayloadOperations.Sample.ToMessage());

    [Operation(nameof(Operation.GetTextFile))]
    public override Task<FileReply> GetTextFile(GetFileRequest request, ServerCallContext context) => Task.FromResult(Reply(files.TextFile));

    [Operation(nameof(Operation.GetPdf))]
    public override Task<FileReply> GetPdf(GetFileRequest request, ServerCallContext context) => Task.FromResult(Reply(files.PdfFile));

    // Cancellation is checked between chunks rather than handed to WriteAsync: a token given to WriteAsync resets the
    // HTTP/2 stream when it fires, so the client would see CANCELLED instead of the status the interceptor sets.
    // A write stalled by a client that stopped reading ends when the request is aborted (deadline, disconnect).
    [Operation(nameof(Operation.StreamPdf))]
    public override async Task StreamPdf(GetFileRequest request, IServerStreamWriter<FileChunk> responseStream, ServerCallContext context)
    {
        var pdf = files.Pdf;
        var offset = 0;
        do
        {
            context.CancellationToken.ThrowIfCancellationRequested();
            var length = Math.Min(ChunkSize, pdf.Length - offset);
            var chunk = new FileChunk { Data = UnsafeByteOperations.UnsafeWrap(pdf.AsMemory(offset, length)) };
            if (offset == 0)
            {
                chunk.TotalLength = pdf.Length;
            }

            await responseStream.WriteAsync(chunk);
            offset += length;
        }
        while (offset < pdf.Length);
    }

    // UnsafeWrap shares the loaded array instead of copying it; nothing ever writes to it.
    private static FileReply Reply(FilePayload file) =>
        new() { Name = file.Name, ContentType = file.ContentType, Data = UnsafeByteOperations.UnsafeWrap(file.Data) };
}
