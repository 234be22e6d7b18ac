using Microsoft.AspNetCore.Routing;
using ProtocolBench.Shared.Domain.Operations;

namespace ProtocolBench.Shared.Hosting.Operations;

/// <summary>
/// Every endpoint of a service must be bound to an operation whose size its response budget can read, and every
/// operation whose description places it on the service's protocol must be bound by an endpoint (the clients call it
/// there); a service where either is not so refuses to start and says which. <c>--list-operations</c> prints the
/// bindings and exits (1 when one is wrong): the tests read it for all four services.
/// </summary>
public static class ServedOperations
{
    public const string ListOption = "--list-operations";

    /// <summary>The exit code when the service must not go on (listed, or a binding is wrong); null to start.</summary>
    public static async Task<int?> CheckAsync(WebApplication app, string serviceName)
    {
        var endpoints = ((IEndpointRouteBuilder)app).DataSources.SelectMany(d => d.Endpoints);
        var served = app.Services.GetRequiredService<IOperationBindings>();
        var bindings = served.Read(endpoints).ToList();
        var unbound = Unbound(bindings, served.Described).ToList();
        var problems = bindings.Select(b => b.Problem).OfType<string>().Concat(unbound).ToList();
        if (Environment.GetCommandLineArgs().Contains(ListOption))
        {
            foreach (var binding in bindings)
            {
                await Console.Out.WriteLineAsync($"{binding.Endpoint}\t{binding.Operation?.ToString() ?? "-"}\t{binding.Problem ?? "ok"}");
            }

            foreach (var problem in unbound)
            {
                await Console.Out.WriteLineAsync($"-\t-\t{problem}");
            }

            return problems.Count == 0 ? 0 : 1;
        }

        if (problems.Count > 0)
        {
            await Console.Error.WriteLineAsync($"{serviceName}: cannot start: {string.Join("; ", problems)}");
            return 2;
        }

        return null;
    }

    /// <summary>What the bindings leave out: each operation described on the protocol that no endpoint is bound to.</summary>
    public static IEnumerable<string> Unbound(IReadOnlyCollection<OperationBinding> bindings, Func<Operation, string?> described) =>
        from operation in Operation.All
        where described(operation) is not null && !bindings.Any(b => b.Operation == operation)
        select $"Operation.{operation.Name} is described at '{described(operation)}' on this protocol, and no endpoint is bound to it: " +
               "bind one, or take the protocol out of its description";
}
