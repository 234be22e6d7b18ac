using System.Reflection;
using Grpc.AspNetCore.Server.Model;
using Grpc.Net.Compression;

namespace ProtocolBench.Grpc.Service;

/// <summary>
/// A request that cannot be read is the client's mistake: INVALID_ARGUMENT, logged at Information by grpc-dotnet. So is a
/// value protobuf would read as another (<see cref="RequestWireCheck"/>).
/// grpc-dotnet (2.85) reads and decompresses the request before any interceptor runs, and calls a failure there
/// "Exception was thrown by handler." (UNKNOWN) with an error-level stack trace; an <see cref="RpcException"/> thrown
/// instead carries its own status. So the request marshallers and the decompressors throw one.
/// </summary>
internal static class CheckedRequests
{
    public static readonly Status UnreadableMessage = new(StatusCode.InvalidArgument, "The request is not a valid protobuf message for this method.");

    public static readonly Status CorruptCompressedData = new(StatusCode.InvalidArgument, "The request's compressed data is corrupt.");

    public static Marshaller<T> Checked<T>(Marshaller<T> marshaller)
    {
        var wire = RequestWireCheck.For<T>();
        return new(marshaller.ContextualSerializer, context => Read(marshaller, wire, context));
    }

    private static T Read<T>(Marshaller<T> marshaller, RequestWireCheck? wire, DeserializationContext context)
    {
        if (wire?.FirstError(context.PayloadAsReadOnlySequence()) is { } error)
        {
            throw new RpcException(new Status(StatusCode.InvalidArgument, error.Message));
        }

        try
        {
            return marshaller.ContextualDeserializer(context);
        }
        catch (InvalidProtocolBufferException)
        {
            // Unparseable bytes, and invalid UTF-8 in a string field.
            throw new RpcException(UnreadableMessage);
        }
    }
}

/// <summary>
/// Binds each service the way grpc-dotnet's own (internal) binder does — the generated BindService method, the handler
/// found by name on the service — with each request marshaller wrapped by <see cref="CheckedRequests.Checked{T}"/>, and a
/// file's reply marshaller by <see cref="SplicedReplies.For{T}"/>.
/// Written here because grpc-dotnet has no option for it; it replaces grpc-dotnet's provider for every service.
/// </summary>
internal sealed class CheckedRequestsMethodProvider<TService> : IServiceMethodProvider<TService> where TService : class
{
    public void OnServiceMethodDiscovery(ServiceMethodProviderContext<TService> context)
    {
        var declaring = typeof(TService);
        while (declaring is not null && declaring.GetCustomAttribute<BindServiceMethodAttribute>(inherit: false) is null)
        {
            declaring = declaring.BaseType;
        }

        if (declaring?.GetCustomAttribute<BindServiceMethodAttribute>(inherit: false) is not { } bind)
        {
            return;
        }

        var bindService = bind.BindType.GetMethod(bind.BindMethodName, BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Static,
                              [typeof(ServiceBinderBase), declaring])
                          ?? throw new InvalidOperationException($"{bind.BindType}.{bind.BindMethodName} was not found.");
        bindService.Invoke(null, [new Binder(context), null]);
    }

    private sealed class Binder(ServiceMethodProviderContext<TService> context) : ServiceBinderBase
    {
        public override void AddMethod<TRequest, TResponse>(Method<TRequest, TResponse> method, UnaryServerMethod<TRequest, TResponse>? handler)
        {
            var (invoker, metadata) = Handler<UnaryServerMethod<TService, TRequest, TResponse>>(method.Name, typeof(TRequest), typeof(ServerCallContext));
            context.AddUnaryMethod(Checked(method), metadata, invoker);
        }

        public override void AddMethod<TRequest, TResponse>(Method<TRequest, TResponse> method, ServerStreamingServerMethod<TRequest, TResponse>? handler)
        {
            var (invoker, metadata) = Handler<ServerStreamingServerMethod<TService, TRequest, TResponse>>(
                method.Name, typeof(TRequest), typeof(IServerStreamWriter<TResponse>), typeof(ServerCallContext));
            context.AddServerStreamingMethod(Checked(method), metadata, invoker);
        }

        public override void AddMethod<TRequest, TResponse>(Method<TRequest, TResponse> method, ClientStreamingServerMethod<TRequest, TResponse>? handler)
        {
            var (invoker, metadata) = Handler<ClientStreamingServerMethod<TService, TRequest, TResponse>>(
                method.Name, typeof(IAsyncStreamReader<TRequest>), typeof(ServerCallContext));
            context.AddClientStreamingMethod(Checked(method), metadata, invoker);
        }

        public override void AddMethod<TRequest, TResponse>(Method<TRequest, TResponse> method, DuplexStreamingServerMethod<TRequest, TResponse>? handler)
        {
            var (invoker, metadata) = Handler<DuplexStreamingServerMethod<TService, TRequest, TResponse>>(
                method.Name, typeof(IAsyncStreamReader<TRequest>), typeof(IServerStreamWriter<TResponse>), typeof(ServerCallContext));
            context.AddDuplexStreamingMethod(Checked(method), metadata, invoker);
        }

        private static Method<TRequest, TResponse> Checked<TRequest, TResponse>(Method<TRequest, TResponse> method) =>
            new(method.Type, method.ServiceName, method.Name, CheckedRequests.Checked(method.RequestMarshaller), SplicedReplies.For(method.ResponseMarshaller));

        /// <summary>The service's public override of the generated method, and its attributes as endpoint metadata (as grpc-dotnet adds them).</summary>
        private static (TDelegate Invoker, List<object> Metadata) Handler<TDelegate>(string name, params Type[] parameters) where TDelegate : Delegate
        {
            var handler = typeof(TService).GetMethod(name, BindingFlags.Public | BindingFlags.Instance, parameters)
                          ?? throw new InvalidOperationException($"Could not find '{name}' on {typeof(TService)}.");
            List<object> metadata =
            [
                .. typeof(TService).GetCustomAttributes(inherit: true),
                .. handler.GetCustomAttributes(inherit: true),
                new HttpMethodMetadata(["POST"], acceptCorsPreflight: true),
            ];
            return ((TDelegate)Delegate.CreateDelegate(typeof(TDelegate), handler), metadata);
        }
    }
}

/// <summary>grpc-dotnet's gzip or deflate, with corrupt data reported as INVALID_ARGUMENT (see <see cref="CheckedRequests"/>).</summary>
internal sealed class CheckedCompressionProvider(ICompressionProvider inner) : ICompressionProvider
{
    public string EncodingName => inner.EncodingName;

    public Stream CreateCompressionStream(Stream stream, System.IO.Compression.CompressionLevel? compressionLevel) =>
        inner.CreateCompressionStream(stream, compressionLevel);

    public Stream CreateDecompressionStream(Stream stream) => new CheckedStream(inner.CreateDecompressionStream(stream));

    private sealed class CheckedStream(Stream inner) : Stream
    {
        public override bool CanRead => true;

        public override bool CanSeek => false;

        public override bool CanWrite => false;

        public override long Length => throw new NotSupportedException();

        public override long Position { get => throw new NotSupportedException(); set => throw new NotSupportedException(); }

        public override int Read(byte[] buffer, int offset, int count) => Read(buffer.AsSpan(offset, count));

        public override int Read(Span<byte> buffer)
        {
            try
            {
                return inner.Read(buffer);
            }
            catch (InvalidDataException)
            {
                throw new RpcException(CheckedRequests.CorruptCompressedData);
            }
        }

        public override void Flush()
        {
        }

        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

        public override void SetLength(long value) => throw new NotSupportedException();

        public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();

        protected override void Dispose(bool disposing)
        {
            if (disposing)
            {
                inner.Dispose();
            }

            base.Dispose(disposing);
        }
    }
}
