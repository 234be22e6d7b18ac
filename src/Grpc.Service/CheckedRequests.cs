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
