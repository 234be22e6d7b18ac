using System.Collections.Frozen;
using System.Reflection;
using ProtocolBench.Shared.Hosting.Operations;

namespace ProtocolBench.SignalR.Api.Operations;

/// <summary>Every hub method of <see cref="LibraryHub"/>, bound by its <see cref="OperationAttribute"/>, read once.</summary>
internal sealed class HubOperationBindings : IOperationBindings
{
    /// <summary>The hub's methods as SignalR finds them: public, declared by the hub itself.</summary>
    private static readonly MethodInfo[] Methods = typeof(LibraryHub)
        .GetMethods(BindingFlags.Public | BindingFlags.Instance | BindingFlags.DeclaredOnly)
        .Where(m => !m.IsSpecialName)
        .ToArray();

    private static readonly FrozenDictionary<string, (Operation? Operation, string[] Parameters)> ByName =
        Methods.ToFrozenDictionary(m => m.Name, m => (m.GetCustomAttribute<OperationAttribute>()?.Operation, m.GetParameters().Select(p => p.Name!).ToArray()));

    public IEnumerable<OperationBinding> Read(IEnumerable<Endpoint> endpoints) =>
        Methods.Select(m => new OperationBinding(
            $"{nameof(LibraryHub)}.{m.Name}",
            ByName[m.Name].Operation,
            m.GetParameters().Where(p => p.ParameterType != typeof(CancellationToken)).Select(p => p.Name!).ToList(),
            m.Name,
            ByName[m.Name].Operation is { } operation ? Described(operation) : null));

    public string? Described(Operation operation) => operation.OnHub ? operation.Name : null;

    /// <summary>The operation an invocation calls, null for a method the hub does not have (SignalR refuses it).</summary>
    public static Operation? OperationOf(HubInvocationContext invocation) =>
        ByName.TryGetValue(invocation.HubMethodName, out var method) ? method.Operation : null;

    /// <summary>An invocation's arguments, read by its method's parameter names.</summary>
    public static OperationArguments ArgumentsOf(HubInvocationContext invocation) => new(invocation, ReadArgument);

    private static object? ReadArgument(object? source, string name)
    {
        var invocation = (HubInvocationContext)source!;
        var index = ByName.TryGetValue(invocation.HubMethodName, out var method) ? Array.IndexOf(method.Parameters, name) : -1;
        return index >= 0 && index < invocation.HubMethodArguments.Count ? invocation.HubMethodArguments[index] : null;
    }
}
