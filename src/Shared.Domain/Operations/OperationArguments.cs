namespace ProtocolBench.Shared.Domain.Operations;

/// <summary>
/// The arguments of one call, read by name from wherever its protocol holds them (an action's arguments, a protobuf
/// message, a GraphQL field's argument values, a hub invocation's), without copying them. A missing argument reads null.
/// </summary>
public readonly struct OperationArguments(object? source, Func<object?, string, object?> read)
{
    public string? Text(string name) => Read(name) as string;

    public int? Int(string name) => Read(name) as int?;

    private object? Read(string name) => read is null ? null : read(source, name);
}
