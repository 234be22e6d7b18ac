using System.Collections.Concurrent;
using Google.Protobuf;
using Google.Protobuf.Reflection;
using Grpc.Core;

namespace ProtocolBench.Shared.Clients;

/// <summary>
/// An operation's gRPC method (<see cref="Operation.Grpc"/>, e.g. <c>Authors/Search</c>), found once in
/// protocolbench.proto's descriptors: its request is made by setting each argument given on the field of its name (a
/// value left out is left unset, as proto3 reads it), and messages go both ways as the generated clients send them.
/// </summary>
internal sealed class GrpcMethod
{
    private static readonly ConcurrentDictionary<Operation, GrpcMethod> Methods = new();

    private readonly MessageDescriptor _request;
    private readonly FieldDescriptor[] _fields;

    private GrpcMethod(Operation operation)
    {
        var address = operation.Grpc ?? throw new NotSupportedException($"gRPC does not offer {operation.Name}.");
        var (serviceName, methodName) = (address[..address.IndexOf('/')], address[(address.IndexOf('/') + 1)..]);
        var service = V1.ProtocolbenchReflection.Descriptor.Services.SingleOrDefault(s => s.Name == serviceName)
                      ?? throw new NotSupportedException($"protocolbench.proto has no service {serviceName} ({operation.Name}).");
        var method = service.FindMethodByName(methodName)
                     ?? throw new NotSupportedException($"protocolbench.proto's {serviceName} has no method {methodName} ({operation.Name}).");
        _request = method.InputType;
        _fields = [.. operation.Parameters.Select(p => _request.FindFieldByName(p.Name)
                      ?? throw new NotSupportedException($"{_request.Name} has no field {p.Name} ({operation.Name})."))];
        IsStreamed = method.IsServerStreaming;
        Path = $"/{service.FullName}/{method.Name}";
        Reply = method.OutputType;
        Method = new Method<IMessage, IMessage>(
            IsStreamed ? MethodType.ServerStreaming : MethodType.Unary,
            service.FullName,
            method.Name,
            Marshaller(method.InputType.Parser),
            Marshaller(method.OutputType.Parser));
    }

    public Method<IMessage, IMessage> Method { get; }

    public bool IsStreamed { get; }

    /// <summary>The method's HTTP/2 path, e.g. /protocolbench.v1.Authors/Search.</summary>
    public string Path { get; }

    /// <summary>The reply message's type.</summary>
    public MessageDescriptor Reply { get; }

    public static GrpcMethod Of(Operation operation) => Methods.GetOrAdd(operation, static o => new GrpcMethod(o));

    public IMessage Request(OperationCall call)
    {
        var request = (IMessage)Activator.CreateInstance(_request.ClrType)!;
        for (var i = 0; i < _fields.Length; i++)
        {
            if (call.Values[i] is { } value)
            {
                _fields[i].Accessor.SetValue(request, value);
            }
        }

        return request;
    }

    // As the generated clients marshal (Grpc.Tools): written straight into the call's buffer, parsed from its sequence.
    private static Marshaller<IMessage> Marshaller(MessageParser parser) =>
        Marshallers.Create<IMessage>(
            (message, context) =>
            {
                context.SetPayloadLength(message.CalculateSize());
                message.WriteTo(context.GetBufferWriter());
                context.Complete();
            },
            context => parser.ParseFrom(context.PayloadAsReadOnlySequence()));
}
