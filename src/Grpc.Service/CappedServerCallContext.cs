namespace ProtocolBench.Grpc.Service;

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
