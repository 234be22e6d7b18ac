namespace ProtocolBench.Shared.Clients;

/// <summary>
/// <c>data</c>: the one root field asked for, named for each operation when it is read (<see cref="GraphQLDocument"/>
/// renames <see cref="Value"/> to the field), so that data are read as they arrive, like any typed answer.
/// </summary>
internal sealed record GraphQLField<T>(T? Value);
