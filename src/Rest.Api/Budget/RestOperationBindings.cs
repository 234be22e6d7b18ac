using System.Reflection;
using Microsoft.AspNetCore.Mvc.Controllers;
using ProtocolBench.Shared.Hosting.Operations;

namespace ProtocolBench.Rest.Api.Budget;

/// <summary>Every controller action the service maps, bound by its <see cref="OperationAttribute"/>.</summary>
internal sealed class RestOperationBindings : IOperationBindings
{
    public IEnumerable<OperationBinding> Read(IEnumerable<Endpoint> endpoints) =>
        endpoints
            .Select(e => e.Metadata.GetMetadata<ControllerActionDescriptor>())
            .OfType<ControllerActionDescriptor>()
            .Select(action => new OperationBinding(
                $"{action.ControllerName}.{action.ActionName}",
                action.MethodInfo.GetCustomAttribute<OperationAttribute>()?.Operation,
                action.Parameters.Select(p => p.Name).ToList()));
}
