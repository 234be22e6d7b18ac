namespace ProtocolBench.Rest.Api;

/// <summary>Maps the domain's typed errors to ProblemDetails: 400 INVALID_ARGUMENT, 404 NOT_FOUND, 503 UNAVAILABLE.</summary>
internal sealed class DomainExceptionFilter : Microsoft.AspNetCore.Mvc.Filters.IExceptionFilter
{
    public void OnException(Microsoft.AspNetCore.Mvc.Filters.ExceptionContext context)
    {
        if (context.Exception.ToClientError() is not { } error)
        {
            return;
        }

        var problem = ProblemOf(error);
        context.Result = new ObjectResult(problem) { StatusCode = problem.Status, ContentTypes = { "application/problem+json" } };
        context.ExceptionHandled = true;
    }

    public static ProblemDetails ProblemOf(DomainException error) => new()
    {
        Status = error.Code switch
        {
            ErrorCode.InvalidArgument => StatusCodes.Status400BadRequest,
            ErrorCode.NotFound => StatusCodes.Status404NotFound,
            _ => StatusCodes.Status503ServiceUnavailable,
        },
        Title = error.Code switch
        {
            ErrorCode.InvalidArgument => "Invalid argument",
            ErrorCode.NotFound => "Not found",
            _ => "Service unavailable",
        },
        Detail = error.Message,
        Extensions = { ["code"] = error.WireCode, ["field"] = error.Field },
    };
}
