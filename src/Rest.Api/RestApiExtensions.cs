using Microsoft.AspNetCore.Mvc;
using ProtocolBench.Shared.Domain;
using ProtocolBench.Shared.Hosting;

namespace ProtocolBench.Rest.Api;

public static class RestApiExtensions
{
    public static WebApplicationBuilder AddRestApi(this WebApplicationBuilder builder)
    {
        builder.Services.AddControllers(o => o.Filters.Add<DomainExceptionFilter>())
            // The serializer's own messages name internal types ("could not be converted to ...AuthorInput"); say less.
            .AddJsonOptions(o => o.AllowInputFormatterExceptionMessages = false)
            .ConfigureApiBehaviorOptions(o => o.InvalidModelStateResponseFactory = context =>
            {
                // Binding failures (count=abc, id=99999999999, malformed JSON) read like every other invalid argument.
                var problem = new ValidationProblemDetails(context.ModelState)
                {
                    Status = StatusCodes.Status400BadRequest,
                    Title = "Invalid argument",
                };
                problem.Extensions["code"] = "INVALID_ARGUMENT";
                return new BadRequestObjectResult(problem) { ContentTypes = { "application/problem+json" } };
            });
        builder.Services.AddProblemDetails(o => o.CustomizeProblemDetails = c => c.ProblemDetails.Extensions.Remove("traceId"));
        // Kestrel's own refusals (413 body too large, 408 slow body) keep their status instead of becoming a 500.
        builder.Services.Configure<ExceptionHandlerOptions>(o => o.StatusCodeSelector = e =>
            e is BadHttpRequestException bad ? bad.StatusCode : StatusCodes.Status500InternalServerError);
        builder.Services.AddOpenApi();
        return builder;
    }

    public static WebApplication MapRestApi(this WebApplication app)
    {
        // No developer exception page in any environment: a client never sees a stack trace.
        app.UseExceptionHandler();
        app.UseServiceDefaults();
        app.UseStatusCodePages();
        app.MapControllers();
        app.MapOpenApi();
        app.MapServiceHealth();
        return app;
    }
}

/// <summary>Maps the domain's typed errors to ProblemDetails: 400 INVALID_ARGUMENT, 404 NOT_FOUND, 503 UNAVAILABLE.</summary>
internal sealed class DomainExceptionFilter : Microsoft.AspNetCore.Mvc.Filters.IExceptionFilter
{
    public void OnException(Microsoft.AspNetCore.Mvc.Filters.ExceptionContext context)
    {
        if (context.Exception.ToClientError() is not { } error)
        {
            return;
        }

        var status = error.Code switch
        {
            ErrorCode.InvalidArgument => StatusCodes.Status400BadRequest,
            ErrorCode.NotFound => StatusCodes.Status404NotFound,
            _ => StatusCodes.Status503ServiceUnavailable,
        };
        var problem = new ProblemDetails
        {
            Status = status,
            Title = error.Code switch
            {
                ErrorCode.InvalidArgument => "Invalid argument",
                ErrorCode.NotFound => "Not found",
                _ => "Service unavailable",
            },
            Detail = error.Message,
            Extensions = { ["code"] = error.WireCode, ["field"] = error.Field },
        };
        context.Result = new ObjectResult(problem) { StatusCode = status, ContentTypes = { "application/problem+json" } };
        context.ExceptionHandled = true;
    }
}
