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

    public override Task<TResponse> UnaryServerHandler<TRequest, TResponse>(
        TRequest request, ServerCallContext context, UnaryServerMethod<TRequest, TResponse> continuation) =>
        GuardAsync(context, (request, continuation), static (call, capped) => call.continuation(call.request, capped));

    public override Task<TResponse> ClientStreamingServerHandler<TRequest, TResponse>(
        IAsyncStreamReader<TRequest> requestStream, ServerCallContext context,
        ClientStreamingServerMethod<TRequest, TResponse> continuation) =>
        GuardAsync(context, (requestStream, continuation), static (call, capped) => call.continuation(call.requestStream, capped));

    public override Task ServerStreamingServerHandler<TRequest, TResponse>(
        TRequest request, IServerStreamWriter<TResponse> responseStream, ServerCallContext context,
        ServerStreamingServerMethod<TRequest, TResponse> continuation) =>
        GuardAsync(context, (request, responseStream, continuation), static async (call, capped) =>
        {
            await call.continuation(call.request, call.responseStream, capped);
            return true;
        });

    public override Task DuplexStreamingServerHandler<TRequest, TResponse>(
        IAsyncStreamReader<TRequest> requestStream, IServerStreamWriter<TResponse> responseStream, ServerCallContext context,
        DuplexStreamingServerMethod<TRequest, TResponse> continuation) =>
        GuardAsync(context, (requestStream, responseStream, continuation), static async (call, capped) =>
        {
            await call.continuation(call.requestStream, call.responseStream, capped);
            return true;
        });

    /// <summary>
    /// Every kind of call, capped and translated the same way. The call's parts travel as state to a static function, not
    /// in a closure; a streaming call, which has no result, returns one from an async function of its own.
    /// </summary>
    private async Task<TResult> GuardAsync<TState, TResult>(
        ServerCallContext context, TState state, Func<TState, ServerCallContext, Task<TResult>> call)
    {
        using var capped = Cap(context);
        try
        {
            return await call(state, capped ?? context);
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
