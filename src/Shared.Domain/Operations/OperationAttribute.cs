namespace ProtocolBench.Shared.Domain.Operations;

/// <summary>
/// Binds a REST action, a gRPC method or a hub method to its <see cref="Operation"/>:
/// <c>[Operation(nameof(Operation.Clone))]</c>. An unknown name fails the service's start.
/// </summary>
[AttributeUsage(AttributeTargets.Method, Inherited = false)]
public sealed class OperationAttribute(string name) : Attribute
{
    public Operation Operation { get; } = Operation.Find(name) ?? throw new ArgumentException($"No operation is named '{name}' (Operation.All).", nameof(name));
}
