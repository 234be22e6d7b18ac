using Grpc.Core.Interceptors;
using Microsoft.Extensions.Options;

namespace ProtocolBench.Grpc.Service;

/// <summary>
/// Translates the domain's errors to gRPC status codes (INVALID_ARGUMENT, NOT_FOUND, UNAVAILABLE) with the domain message
/// as the only detail, and cuts off any call that would outlive <see cref="GrpcApiOptions.MaxCallDuration"/>.
/// Anything else is left to grpc-dotnet, which answers UNKNOWN without details (EnableDetailedErrors is off).
/// </summary>
public sealed class ErrorInterceptor(IOptions<GrpcApiOptions> options) : Interceptor
{
    private readonly TimeSpan _maxCallDuration = options.Value.MaxCallDuration;

    public override async Task<TResponse> UnaryServerHandler<TRequest, TResponse>(
        TRequest request, ServerCallContext context, UnaryServerMethod<TRequest, TResponse> continuation)
    {
        using var capped = Cap(context);
        try
        {
            return await continuation(request, capped ?? context);
        }
        catch (Exception e) when (Translate(e, capped) is { } status)
        {
            throw status;
        }
    }

    public override async Task ServerStreamingServerHandler<TRequest, TResponse>(
        TRequest request, IServerStreamWriter<TResponse> responseStream, ServerCallContext context,
        ServerStreamingServerMethod<TRequest, TResponse> continuation)
    {
        using var capped = Cap(context);
        try
        {
            await continuation(request, responseStream, capped ?? context);
        }
        catch (Exception e) when (Translate(e, capped) is { } status)
        {
            throw status;
        }
    }

    public override async Task<TResponse> ClientStreamingServerHandler<TRequest, TResponse>(
        IAsyncStreamReader<TRequest> requestStream, ServerCallContext context,
        ClientStreamingServerMethod<TRequest, TResponse> continuation)
    {
        using var capped = Cap(context);
        try
        {
            return await continuation(requestStream, capped ?? context);
        }
        catch (Exception e) when (Translate(e, capped) is { } status)
        {
            throw status;
        }
    }

    public override async Task DuplexStreamingServerHandler<TRequest, TResponse>(
        IAsyncStreamReader<TRequest> requestStream, IServerStreamWriter<TResponse> responseStream, ServerCallContext context,
        DuplexStreamingServerMethod<TRequest, TResponse> continuation)
    {
        using var capped = Cap(context);
        try
        {
            await continuation(requestStream, responseStream, capped ?? context);
        }
        catch (Exception e) when (Translate(e, capped) is { } status)
        {
            throw status;
        }
    }

    /// <summary>
    /// A call whose deadline is within the maximum (the benchmark client's always is) runs untouched, with nothing allocated.
    /// Any other gets a context whose deadline is the maximum and whose token fires then.
    /// </summary>
    private CappedServerCallContext? Cap(ServerCallContext context)
    {
        var latest = DateTime.UtcNow + _maxCallDuration;
        return context.Deadline <= latest ? null : new CappedServerCallContext(context, latest, _maxCallDuration);
    }

    private RpcException? Translate(Exception exception, CappedServerCallContext? capped)
    {
        if (exception is OperationCanceledException && capped is { CapReached: true })
        {
            return new RpcException(new Status(
                StatusCode.DeadlineExceeded,
                $"The call ran longer than this server's maximum of {_maxCallDuration.TotalSeconds:0.###} s."));
        }

        return exception.ToClientError() switch
        {
            null => null,
            { Code: ErrorCode.InvalidArgument } error => new RpcException(new Status(StatusCode.InvalidArgument, error.Message)),
            { Code: ErrorCode.NotFound } error => new RpcException(new Status(StatusCode.NotFound, error.Message)),
            var error => new RpcException(new Status(StatusCode.Unavailable, error.Message)),
        };
    }
}

/// <summary>
/// The call's own context with an earlier deadline and a token linked to it (ServerCallContext's token cannot be replaced).
/// Everything else goes to the original.
/// </summary>
internal sealed class CappedServerCallContext : ServerCallContext, IDisposable
{
    // grpc-dotnet resolves the service through GetHttpContext(), which finds it in UserState under this key when the
    // context is not its own (grpc-dotnet src/Grpc.AspNetCore.Server/ServerCallContextExtensions.cs).
    private const string HttpContextKey = "__HttpContext";

    private readonly ServerCallContext _inner;
    private readonly DateTime _deadline;
    private readonly CancellationTokenSource _cap;

    public CappedServerCallContext(ServerCallContext inner, DateTime deadline, TimeSpan after)
    {
        _inner = inner;
        _inner.UserState[HttpContextKey] = inner.GetHttpContext();
        _deadline = deadline;
        _cap = CancellationTokenSource.CreateLinkedTokenSource(inner.CancellationToken);
        _cap.CancelAfter(after);
    }

    /// <summary>The maximum fired, not the client (gone, cancelled, or its own deadline).</summary>
    public bool CapReached => _cap.IsCancellationRequested && !_inner.CancellationToken.IsCancellationRequested;

    protected override string MethodCore => _inner.Method;

    protected override string HostCore => _inner.Host;

    protected override string PeerCore => _inner.Peer;

    protected override DateTime DeadlineCore => _deadline;

    protected override Metadata RequestHeadersCore => _inner.RequestHeaders;

    protected override CancellationToken CancellationTokenCore => _cap.Token;

    protected override Metadata ResponseTrailersCore => _inner.ResponseTrailers;

    protected override Status StatusCore
    {
        get => _inner.Status;
        set => _inner.Status = value;
    }

    protected override WriteOptions? WriteOptionsCore
    {
        get => _inner.WriteOptions;
        set => _inner.WriteOptions = value;
    }

    protected override AuthContext AuthContextCore => _inner.AuthContext;

    protected override IDictionary<object, object> UserStateCore => _inner.UserState;

    public void Dispose() => _cap.Dispose();

    protected override ContextPropagationToken CreatePropagationTokenCore(ContextPropagationOptions? options) =>
        _inner.CreatePropagationToken(options);

    protected override Task WriteResponseHeadersAsyncCore(Metadata responseHeaders) => _inner.WriteResponseHeadersAsync(responseHeaders);
}
