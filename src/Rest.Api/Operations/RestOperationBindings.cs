using System.Reflection;
using System.Text.Json;
using System.Text.RegularExpressions;
using Microsoft.AspNetCore.Mvc.ActionConstraints;
using Microsoft.AspNetCore.Mvc.Controllers;
using ProtocolBench.Shared.Hosting.Operations;

namespace ProtocolBench.Rest.Api.Operations;

/// <summary>
/// Every controller action the service maps, bound by its <see cref="OperationAttribute"/>: at its verb and route
/// (constraints left out: <c>PUT api/authors/{id}</c>), taking its route and query parameters and its JSON body's
/// properties (an <see cref="AuthorInput"/> is name and country).
/// </summary>
internal sealed partial class RestOperationBindings : IOperationBindings
{
    public IEnumerable<OperationBinding> Read(IEnumerable<Endpoint> endpoints) =>
        endpoints
            .Select(e => e.Metadata.GetMetadata<ControllerActionDescriptor>())
            .OfType<ControllerActionDescriptor>()
            .Select(action =>
            {
                var operation = action.MethodInfo.GetCustomAttribute<OperationAttribute>()?.Operation;
                var verb = action.ActionConstraints?.OfType<HttpMethodActionConstraint>().FirstOrDefault()?.HttpMethods.FirstOrDefault() ?? "GET";
                var route = Constraint().Replace(action.AttributeRouteInfo?.Template ?? "", "{$1}");
                return new OperationBinding(
                    $"{action.ControllerName}.{action.ActionName}",
                    operation,
                    [.. action.Parameters.SelectMany(Names)],
                    $"{verb} {route}",
                    operation?.Rest);
            });

    public string? Described(Operation operation) => operation.Rest;

    private static IEnumerable<string> Names(Microsoft.AspNetCore.Mvc.Abstractions.ParameterDescriptor parameter) =>
        parameter.ParameterType.IsClass && parameter.ParameterType != typeof(string)
            ? parameter.ParameterType.GetProperties().Select(p => JsonNamingPolicy.CamelCase.ConvertName(p.Name))
            : [parameter.Name];

    [GeneratedRegex(@"\{(\w+):[^}]*\}")]
    private static partial Regex Constraint();
}
