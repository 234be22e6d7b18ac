using Grpc.AspNetCore.Server;
using ProtocolBench.Shared.Hosting.Operations;

namespace ProtocolBench.Grpc.Service.Operations;

/// <summary>Every method of the project's gRPC services (not health or reflection), bound by its <see cref="OperationAttribute"/>.</summary>
internal sealed class GrpcOperationBindings : IOperationBindings
{
    public IEnumerable<OperationBinding> Read(IEnumerable<Endpoint> endpoints) =>
        from endpoint in endpoints
        let method = endpoint.Metadata.GetMetadata<GrpcMethodMetadata>()?.Method
        let descriptor = ProtocolbenchReflection.Descriptor.Services.FirstOrDefault(s => s.FullName == method?.ServiceName)?.FindMethodByName(method.Name)
        where descriptor is not null
        let operation = endpoint.Metadata.GetMetadata<OperationAttribute>()?.Operation
        select new OperationBinding(
            descriptor.FullName,
            operation,
            descriptor.InputType.Fields.InDeclarationOrder().Select(f => f.Name).ToList(),
            $"{descriptor.Service.Name}/{descriptor.Name}",
            operation?.Grpc);

    public string? Described(Operation operation) => operation.Grpc;
}
