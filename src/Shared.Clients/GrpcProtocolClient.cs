using System.IO.Compression;
using Grpc.Core;
using Grpc.Net.Client;
using Grpc.Net.Compression;
using ProtocolBench.Shared.Domain;

namespace ProtocolBench.Shared.Clients;

/// <summary>
/// gRPC over one GrpcChannel (h2c prior knowledge on HTTP, h2 on HTTPS) with the counting, exact-trust handler.
/// Every call carries a deadline of <see cref="ClientOptions.CallTimeout"/>.
/// </summary>
public sealed class GrpcProtocolClient : ProtocolClient
{
    // Sending is capped generously so that the server's own 1 MiB request limit is what refuses a large request.
    private const int MaxSendMessageBytes = 4 * Limits.RequestBodyMaxBytes;

    private readonly GrpcChannel _channel;
    private readonly CallInvoker _invoker;
    private readonly TimeSpan _callTimeout;
    private readonly Metadata? _headers;

    public GrpcProtocolClient(Transport transport, ClientOptions options)
        : base(Protocol.Grpc, transport)
    {
        _callTimeout = options.CallTimeout;
        var compressed = options.Compression != Compression.None;
        _channel = GrpcChannel.ForAddress(options.Addresses.BaseUri(Protocol.Grpc, transport), new GrpcChannelOptions
        {
            HttpHandler = ClientHandlers.CreateForGrpc(options, Wire),
            DisposeHttpClient = true,
            MaxReceiveMessageSize = options.GrpcMaxReceiveMessageSize,
            MaxSendMessageSize = MaxSendMessageBytes,
            // grpc-accept-encoding: gzip (at zlib's default level, as the services) when compressing, otherwise identity
            // alone, so that a service that compresses does not unless asked to, as with Accept-Encoding over HTTP.
            CompressionProviders = compressed ? [new GzipCompressionProvider(CompressionLevel.Optimal)] : [],
        });
        // Requests compressed too: grpc-dotnet reads this header, sends grpc-encoding: gzip and does not transmit it.
        _headers = compressed ? new Metadata { { "grpc-internal-encoding-request", "gzip" } } : null;
        _invoker = _channel.CreateCallInvoker();
    }

    public override bool Offers(Operation operation) => operation.Grpc is not null;

    public override async Task<TResult> CallAsync<TResult>(OperationCall<TResult> call, CancellationToken cancellationToken = default)
    {
        var method = GrpcMethod.Of(call.Operation);
        if (method.IsStreamed)
        {
            return (TResult)(object)await StreamAsync(method, call, cancellationToken);
        }

        using var unary = _invoker.AsyncUnaryCall(method.Method, null, Options(cancellationToken), method.Request(call));
        try
        {
            return GrpcMessages.Read<TResult>(await unary.ResponseAsync.ConfigureAwait(false));
        }
        catch (RpcException e)
        {
            throw Translate(e, cancellationToken);
        }
    }

    public override ValueTask DisposeAsync()
    {
        _channel.Dispose();
        return ValueTask.CompletedTask;
    }

    private CallOptions Options(CancellationToken cancellationToken) =>
        new(headers: _headers, deadline: DateTime.UtcNow + _callTimeout, cancellationToken: cancellationToken);

    /// <summary>
    /// A stream of bytes (StreamPdf): FileChunk messages, the first announcing the whole length, copied into one array
    /// of that length.
    /// </summary>
    private async Task<byte[]> StreamAsync(GrpcMethod method, OperationCall request, CancellationToken cancellationToken)
    {
        using var call = _invoker.AsyncServerStreamingCall(method.Method, null, Options(cancellationToken), method.Request(request));
        byte[]? file = null;
        var received = 0;
        try
        {
            while (await call.ResponseStream.MoveNext(cancellationToken).ConfigureAwait(false))
            {
                var chunk = (V1.FileChunk)call.ResponseStream.Current;
                var data = chunk.Data.Span;
                if (file is null)
                {
                    var total = chunk.TotalLength;
                    if (total < 0 || total > Array.MaxLength)
                    {
                        throw InvalidResponse($"The stream announced an impossible length of {total} bytes.");
                    }

                    file = GC.AllocateUninitializedArray<byte>((int)total);
                }

                if (data.Length > file.Length - received)
                {
                    throw InvalidResponse($"The stream sent more than the {file.Length} bytes it announced.");
                }

                data.CopyTo(file.AsSpan(received));
                received += data.Length;
            }
        }
        catch (RpcException e)
        {
            throw Translate(e, cancellationToken);
        }

        if (file is null || received != file.Length)
        {
            throw InvalidResponse($"The stream ended after {received} of {file?.Length ?? 0} announced bytes.");
        }

        return file;
    }

    private static Exception Translate(RpcException e, CancellationToken cancellationToken)
    {
        // Once the caller has cancelled, whatever the call fails with is the cancellation's doing: cancelling mid-read
        // can surface as UNAVAILABLE ("The request was aborted") rather than CANCELLED.
        if (cancellationToken.IsCancellationRequested)
        {
            return new OperationCanceledException("The call was cancelled.", e, cancellationToken);
        }

        return new ProtocolClientException(WireCode(e.StatusCode), e.Status.Detail, $"gRPC {e.StatusCode}", e);
    }

    private static string WireCode(StatusCode code) => code switch
    {
        StatusCode.OK => "OK",
        StatusCode.Cancelled => "CANCELLED",
        StatusCode.Unknown => "UNKNOWN",
        StatusCode.InvalidArgument => "INVALID_ARGUMENT",
        StatusCode.DeadlineExceeded => "DEADLINE_EXCEEDED",
        StatusCode.NotFound => "NOT_FOUND",
        StatusCode.AlreadyExists => "ALREADY_EXISTS",
        StatusCode.PermissionDenied => "PERMISSION_DENIED",
        StatusCode.Unauthenticated => "UNAUTHENTICATED",
        StatusCode.ResourceExhausted => "RESOURCE_EXHAUSTED",
        StatusCode.FailedPrecondition => "FAILED_PRECONDITION",
        StatusCode.Aborted => "ABORTED",
        StatusCode.OutOfRange => "OUT_OF_RANGE",
        StatusCode.Unimplemented => "UNIMPLEMENTED",
        StatusCode.Internal => "INTERNAL",
        StatusCode.Unavailable => "UNAVAILABLE",
        StatusCode.DataLoss => "DATA_LOSS",
        _ => code.ToString().ToUpperInvariant(),
    };

    private static ProtocolClientException InvalidResponse(string message) => new("INVALID_RESPONSE", message, "gRPC OK");
}
