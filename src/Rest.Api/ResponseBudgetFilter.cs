using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.Controllers;
using Microsoft.AspNetCore.Mvc.Filters;
using ProtocolBench.Rest.Api.Controllers;
using ProtocolBench.Shared.Domain;
using ProtocolBench.Shared.Domain.Authors;
using ProtocolBench.Shared.Domain.Payloads;
using ProtocolBench.Shared.Hosting;

namespace ProtocolBench.Rest.Api;

/// <summary>
/// Reserves each action's largest possible answer from the <see cref="ResponseBudget"/> before the action runs, and charges
/// a list of authors its real size once the action has built it, before it is written.
/// </summary>
internal sealed class ResponseBudgetFilter(ResponseBudget budget, PayloadFiles files) : IAsyncActionFilter
{
    public async Task OnActionExecutionAsync(ActionExecutingContext context, ActionExecutionDelegate next)
    {
        await budget.ReserveForAsync(context.HttpContext, SizeOf(context), context.HttpContext.RequestAborted);
        if (await next() is { Result: ObjectResult { Value: IReadOnlyList<AuthorDto> authors } })
        {
            budget.Charge(context.HttpContext, ResponseSize.Authors(authors));
        }
    }

    private long SizeOf(ActionExecutingContext context) => (context.ActionDescriptor as ControllerActionDescriptor)?.ActionName switch
    {
        nameof(PayloadsController.Clone) => ResponseSize.CloneHeld(Argument<string>(context, "text"), Argument<int?>(context, "count")),
        nameof(PayloadsController.Ints) => ResponseSize.Ints(Argument<int?>(context, "count")),
        nameof(PayloadsController.TextFile) => files.IsAvailable ? ResponseSize.File(files.Text.Length) : 0,
        nameof(PayloadsController.Pdf) => files.IsAvailable ? ResponseSize.File(files.Pdf.Length) : 0,
        nameof(PayloadsController.TextFileRaw) => files.IsAvailable ? files.Text.Length : 0,
        nameof(PayloadsController.PdfRaw) => files.IsAvailable ? files.Pdf.Length : 0,
        nameof(AuthorsController.Search) => ResponseSize.Search(Argument<int?>(context, "limit")),
        nameof(AuthorsController.List) => ResponseSize.List(Argument<int?>(context, "take")),
        nameof(ShapesController.Shape) => ResponseSize.Shapes(Argument<string>(context, "kind"), 1),
        nameof(ShapesController.Shapes) => ResponseSize.Shapes(Argument<string>(context, "kind"), Argument<int?>(context, "count")),
        _ => 0,
    };

    private static T? Argument<T>(ActionExecutingContext context, string name) =>
        context.ActionArguments.TryGetValue(name, out var value) && value is T typed ? typed : default;
}
