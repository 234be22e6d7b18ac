using Microsoft.AspNetCore.Mvc.Filters;
using ProtocolBench.Shared.Domain.Payloads;

namespace ProtocolBench.Rest.Api.Budget;

/// <summary>
/// Reserves the largest possible answer of the action's <see cref="Operation"/> from the <see cref="ResponseBudget"/>
/// before the action runs (nothing for a file, written from the copy every caller shares: <see cref="Operation.IsShared"/>), and charges a list of authors its real size once the action has built it, before it is written.
/// </summary>
internal sealed class ResponseBudgetFilter(ResponseBudget budget, PayloadFiles files) : IAsyncActionFilter
{
    public async Task OnActionExecutionAsync(ActionExecutingContext context, ActionExecutionDelegate next)
    {
        var operation = context.HttpContext.GetEndpoint()?.Metadata.GetMetadata<OperationAttribute>()?.Operation;
        var arguments = new OperationArguments(context.ActionArguments, static (arguments, name) => ((IDictionary<string, object?>)arguments!).TryGetValue(name, out var value) ? value : null);
        await budget.ReserveForAsync(context.HttpContext, operation is { IsShared: false } ? operation.MostAnswered(arguments, files) : 0, context.HttpContext.RequestAborted);
        if (await next() is { Result: ObjectResult { Value: IReadOnlyList<AuthorDto> authors } })
        {
            budget.Charge(context.HttpContext, ResponseSize.Authors(authors));
        }
    }
}
