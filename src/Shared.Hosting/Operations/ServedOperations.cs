using Microsoft.AspNetCore.Routing;

namespace ProtocolBench.Shared.Hosting.Operations;

/// <summary>
/// Every endpoint of a service must be bound to an operation whose size its response budget can read; a service with
/// one that is not refuses to start and says which. <c>--list-operations</c> prints the bindings and exits (1 when one
/// is wrong): the tests read it for all four services.
/// </summary>
public static class ServedOperations
{
    public const string ListOption = "--list-operations";

    /// <summary>The exit code when the service must not go on (listed, or a binding is wrong); null to start.</summary>
    public static async Task<int?> CheckAsync(WebApplication app, string serviceName)
    {
        var endpoints = ((IEndpointRouteBuilder)app).DataSources.SelectMany(d => d.Endpoints);
        var bindings = app.Services.GetRequiredService<IOperationBindings>().Read(endpoints).ToList();
        var problems = bindings.Select(b => b.Problem).OfType<string>().ToList();
        if (Environment.GetCommandLineArgs().Contains(ListOption))
        {
            foreach (var binding in bindings)
            {
                await Console.Out.WriteLineAsync($"{binding.Endpoint}\t{binding.Operation?.ToString() ?? "-"}\t{binding.Problem ?? "ok"}");
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
}
