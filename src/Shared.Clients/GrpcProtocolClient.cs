using System.IO.Compression;
using System.Runtime.InteropServices;
using Google.Protobuf;
using Grpc.Core;
using Grpc.Net.Client;
using Grpc.Net.Compression;
using ProtocolBench.Shared.Domain;

namespace ProtocolBench.Shared.Clients;

/// <summary>
/// gRPC over one GrpcChannel (h2c prior knowledge on HTTP, h2 on HTTPS) with the counting, exact-trust handler.
/// Every call carries a deadline of <see cref="ClientOptions.CallTimeout"/>.
/// </summary>
public sealed class GrpcProtocolClient : IProtocolClient
{
    // Sending is capped generously so that the server's own 1 MiB request limit is what refuses a large request.
    private const int MaxSendMessageBytes = 4 * Limits.RequestBodyMaxBytes;

    private readonly GrpcChannel _channel;
    private readonly V1.Payloads.PayloadsClient _payloads;
    private readonly V1.Authors.AuthorsClient _authors;
    private readonly V1.Shapes.ShapesClient _shapes;
    private readonly TimeSpan _callTimeout;
    private readonly Metadata? _headers;

    public GrpcProtocolClient(Transport transport, ClientOptions options)
    {
        Transport = transport;
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
        _payloads = new V1.Payloads.PayloadsClient(_channel);
        _authors = new V1.Authors.AuthorsClient(_channel);
        _shapes = new V1.Shapes.ShapesClient(_channel);
    }

    public Protocol Protocol => Protocol.Grpc;

    public Transport Transport { get; }

    public WireCounter Wire { get; } = new();

    public async Task<string> CloneAsync(string? text, int? count, CancellationToken cancellationToken = default)
    {
        var request = new V1.CloneRequest { Text = text ?? "" };
        if (count is { } value)
        {
            request.Count = value;
        }

        return (await UnaryAsync(_payloads.CloneAsync(request, Options(cancellationToken)), cancellationToken)).Text;
    }

    public async Task<int> GetIntMaxAsync(CancellationToken cancellationToken = default) =>
        (await UnaryAsync(_payloads.GetIntMaxAsync(new V1.GetIntMaxRequest(), Options(cancellationToken)), cancellationToken)).Value;

    public async Task<int[]> GetIntsAsync(int? count, CancellationToken cancellationToken = default)
    {
        var request = new V1.GetIntsRequest();
        if (count is { } value)
        {
            request.Count = value;
        }

        var reply = await UnaryAsync(_payloads.GetIntsAsync(request, Options(cancellationToken)), cancellationToken);
        var values = new int[reply.Values.Count];
        reply.Values.CopyTo(values, 0);
        return values;
    }

    public async Task<AuthorDto> GetSampleAsync(CancellationToken cancellationToken = default) =>
        GrpcMessages.ToDto(await UnaryAsync(_payloads.GetSampleAsync(new V1.GetSampleRequest(), Options(cancellationToken)), cancellationToken));

    public async Task<byte[]> GetTextFileAsync(CancellationToken cancellationToken = default) =>
        GrpcMessages.ToArray((await UnaryAsync(_payloads.GetTextFileAsync(new V1.GetFileRequest(), Options(cancellationToken)), cancellationToken)).Data);

    public async Task<byte[]> GetPdfAsync(CancellationToken cancellationToken = default) =>
        GrpcMessages.ToArray((await UnaryAsync(_payloads.GetPdfAsync(new V1.GetFileRequest(), Options(cancellationToken)), cancellationToken)).Data);

    /// <summary>StreamPdf: the chunks copied into one array of the length the first chunk announced.</summary>
    public Task<byte[]> GetTextFileBinaryAsync(CancellationToken cancellationToken = default) => GetTextFileAsync(cancellationToken);

    public Task<byte[]>? GetPdfBinaryAsync(CancellationToken cancellationToken = default) => StreamPdfAsync(cancellationToken);

    public async Task<IReadOnlyList<AuthorDto>> SearchAuthorsAsync(string? phrase, int? limit = null, CancellationToken cancellationToken = default)
    {
        var request = new V1.SearchAuthorsRequest { Phrase = phrase ?? "" };
        if (limit is { } value)
        {
            request.Limit = value;
        }

        return GrpcMessages.ToDtos(await UnaryAsync(_authors.SearchAsync(request, Options(cancellationToken)), cancellationToken));
    }

    public async Task<IReadOnlyList<AuthorDto>> ListAuthorsAsync(int? skip = null, int? take = null, CancellationToken cancellationToken = default)
    {
        var request = new V1.ListAuthorsRequest();
        if (skip is { } from)
        {
            request.Skip = from;
        }

        if (take is { } count)
        {
            request.Take = count;
        }

        return GrpcMessages.ToDtos(await UnaryAsync(_authors.ListAsync(request, Options(cancellationToken)), cancellationToken));
    }

    public async Task<AuthorDto> GetAuthorAsync(int id, CancellationToken cancellationToken = default) =>
        GrpcMessages.ToDto(await UnaryAsync(_authors.GetAsync(new V1.GetAuthorRequest { Id = id }, Options(cancellationToken)), cancellationToken));

    public async Task<AuthorDto> CreateAuthorAsync(string? name, string? country, CancellationToken cancellationToken = default)
    {
        var request = new V1.CreateAuthorRequest { Name = name ?? "", Country = country ?? "" };
        return GrpcMessages.ToDto(await UnaryAsync(_authors.CreateAsync(request, Options(cancellationToken)), cancellationToken));
    }

    public async Task<AuthorDto> UpdateAuthorAsync(int id, string? name, string? country, CancellationToken cancellationToken = default)
    {
        var request = new V1.UpdateAuthorRequest { Id = id, Name = name ?? "", Country = country ?? "" };
        return GrpcMessages.ToDto(await UnaryAsync(_authors.UpdateAsync(request, Options(cancellationToken)), cancellationToken));
    }

    public async Task DeleteAuthorAsync(int id, CancellationToken cancellationToken = default) =>
        await UnaryAsync(_authors.DeleteAsync(new V1.DeleteAuthorRequest { Id = id }, Options(cancellationToken)), cancellationToken);

    public async Task<ShapeDto> GetShapeAsync(string? kind, int id, CancellationToken cancellationToken = default) =>
        GrpcMessages.ToDto(await UnaryAsync(_shapes.GetAsync(new V1.GetShapeRequest { Kind = kind ?? "", Id = id }, Options(cancellationToken)), cancellationToken));

    public async Task<IReadOnlyList<ShapeDto>> ListShapesAsync(string? kind, int? count = null, CancellationToken cancellationToken = default)
    {
        var request = new V1.ListShapesRequest { Kind = kind ?? "" };
        if (count is { } value)
        {
            request.Count = value;
        }

        var list = await UnaryAsync(_shapes.ListAsync(request, Options(cancellationToken)), cancellationToken);
        var shapes = new ShapeDto[list.Shapes.Count];
        for (var i = 0; i < shapes.Length; i++)
        {
            shapes[i] = GrpcMessages.ToDto(list.Shapes[i]);
        }

        return shapes;
    }

    public ValueTask DisposeAsync()
    {
        _channel.Dispose();
        return ValueTask.CompletedTask;
    }

    private CallOptions Options(CancellationToken cancellationToken) =>
        new(headers: _headers, deadline: DateTime.UtcNow + _callTimeout, cancellationToken: cancellationToken);

    private static async Task<T> UnaryAsync<T>(AsyncUnaryCall<T> call, CancellationToken cancellationToken)
    {
        using (call)
        {
            try
            {
                return await call.ResponseAsync.ConfigureAwait(false);
            }
            catch (RpcException e)
            {
                throw Translate(e, cancellationToken);
            }
        }
    }

    private async Task<byte[]> StreamPdfAsync(CancellationToken cancellationToken)
    {
        using var call = _payloads.StreamPdf(new V1.GetFileRequest(), Options(cancellationToken));
        byte[]? file = null;
        var received = 0;
        try
        {
            while (await call.ResponseStream.MoveNext(cancellationToken).ConfigureAwait(false))
            {
                var data = call.ResponseStream.Current.Data.Span;
                if (file is null)
                {
                    var total = call.ResponseStream.Current.TotalLength;
                    if (total < 0 || total > Array.MaxLength)
                    {
                        throw InvalidResponse($"StreamPdf announced an impossible length of {total} bytes.");
                    }

                    file = GC.AllocateUninitializedArray<byte>((int)total);
                }

                if (data.Length > file.Length - received)
                {
                    throw InvalidResponse($"StreamPdf sent more than the {file.Length} bytes it announced.");
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
            throw InvalidResponse($"StreamPdf ended after {received} of {file?.Length ?? 0} announced bytes.");
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
