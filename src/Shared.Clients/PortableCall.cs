using System.Text.Json;

namespace ProtocolBench.Shared.Clients;

/// <summary>
/// A call as a client of another stack makes it (the benchmark's --client): the request's bytes exactly as this
/// project's client sends them, and an answer's bytes read back the way this project's client reads them, so that the
/// other stack's answers meet the same checks. REST and GraphQL are a verb, a path and a JSON body; gRPC is the method's
/// path, the request message's bytes and the reply's type (the other stack parses it from <see cref="Descriptors"/>);
/// SignalR is the hub method's name and its arguments as a JSON array, and its result comes back as JSON.
/// </summary>
/// <param name="Path">Relative to the service's address for REST and GraphQL (api/authors/5); the method's for gRPC (/protocolbench.v1.Authors/Get).</param>
/// <param name="ReplyType">gRPC's reply message's full name; null for REST and GraphQL.</param>
/// <param name="IsJson">Whether the answer is JSON (REST's /raw answers are the bytes themselves).</param>
/// <param name="HubProtocol">
/// For a hub method (SignalR): the hub protocol, <c>json</c> or <c>messagepack</c>; <see cref="Method"/> is the hub
/// method's name and <see cref="Body"/> its arguments as a JSON array. Null for an HTTP or gRPC call.
/// </param>
public sealed record PortableCall(Protocol Protocol, string Method, string Path, byte[]? Body, string? ContentType, string? ReplyType, bool IsJson, string? HubProtocol = null)
{
    /// <summary>protocolbench.proto's descriptor (a serialized FileDescriptorProto; it imports nothing).</summary>
    public static IReadOnlyList<byte[]> Descriptors { get; } = [V1.ProtocolbenchReflection.Descriptor.SerializedData.ToByteArray()];

    /// <summary>Whether the protocol has the operation (as its client's <see cref="ILibraryOperations.Offers"/> says).</summary>
    public static bool Offers(Protocol protocol, Operation operation) => protocol switch
    {
        Protocol.Rest => operation.Rest is not null,
        Protocol.GraphQL => operation.GraphQL is not null,
        Protocol.Grpc => operation.Grpc is not null,
        Protocol.SignalR or Protocol.SignalRMessagePack => operation.OnHub,
        _ => false,
    };

    /// <summary>The call as bytes; null where there is no single request and answer to hand over (a gRPC or hub stream).</summary>
    public static PortableCall? Of(Protocol protocol, OperationCall call)
    {
        switch (protocol)
        {
            case Protocol.Rest:
                var route = RestRoute.Of(call.Operation);
                var body = route.BodyBytes(call);
                return new(protocol, route.Method.Method, route.Path(call), body, body is null ? null : $"{RestRoute.ContentType}; charset=utf-8", null,
                    IsJson: call.Operation.ResultType != typeof(byte[]));
            case Protocol.GraphQL:
                return new(protocol, "POST", "graphql", GraphQLDocument.Of(call.Operation).Body(call), "application/json", null, IsJson: true);
            case Protocol.Grpc:
                var method = GrpcMethod.Of(call.Operation);
                return method.IsStreamed
                    ? null
                    : new(protocol, "POST", method.Path, Google.Protobuf.MessageExtensions.ToByteArray(method.Request(call)), null, method.Reply.FullName, IsJson: false);
            case Protocol.SignalR or Protocol.SignalRMessagePack:
                return call.Operation.IsStreamed
                    ? null
                    : new(protocol, call.Operation.Name, "hub", JsonSerializer.SerializeToUtf8Bytes([.. call.Values], RestJsonContext.Default.ObjectArray), null, null,
                        IsJson: true, HubProtocol: protocol == Protocol.SignalR ? "json" : "messagepack");
            default:
                return null;
        }
    }

    /// <summary>
    /// An answer's bytes (a REST or GraphQL body, a gRPC reply message) as this project's client reads them: the same
    /// value its <see cref="ILibraryOperations.CallAsync{TResult}"/> returns, or the same <see cref="ProtocolClientException"/>.
    /// </summary>
    public static TResult Read<TResult>(Protocol protocol, OperationCall<TResult> call, byte[] answer)
    {
        switch (protocol)
        {
            case Protocol.Rest when typeof(TResult) == typeof(byte[]):
                return (TResult)(object)answer;
            case Protocol.Rest when RestAnswer<TResult>.IsWrapped:
                return JsonSerializer.Deserialize(answer, RestAnswer<TResult>.Wrapped) is { IsNull: false } wrapped ? wrapped.Value! : throw Empty(call);
            case Protocol.Rest:
                return JsonSerializer.Deserialize(answer, RestAnswer<TResult>.Json) ?? throw Empty(call);
            case Protocol.GraphQL:
                var document = GraphQLDocument.Of(call.Operation);
                var response = (IGraphQLResponse?)JsonSerializer.Deserialize(answer, document.Response) ?? throw Empty(call);
                return GraphQLProtocolClient.ErrorOf(response) is { } error ? throw error
                    : response.Value is TResult value ? value
                    : throw Empty(call);
            case Protocol.Grpc:
                return GrpcMessages.Read<TResult>(GrpcMethod.Of(call.Operation).Reply.Parser.ParseFrom(answer));
            case Protocol.SignalR or Protocol.SignalRMessagePack:
                // The hub method's result as JSON (property names in either case, a byte array as base64).
                return JsonSerializer.Deserialize(answer, RestAnswer<TResult>.Json) ?? throw Empty(call);
            default:
                throw new NotSupportedException($"{protocol} has no portable answer.");
        }
    }

    private static ProtocolClientException Empty(OperationCall call) =>
        new("EMPTY_RESPONSE", $"The answer to {call.Operation.Name} holds no value.", "EMPTY_RESPONSE");
}
