using System.Text;
using Microsoft.AspNetCore.Mvc.Formatters;
using ProtocolBench.Rest.Api.Budget;
using ProtocolBench.Rest.Api.Operations;
using ProtocolBench.Shared.Hosting.Operations;

namespace ProtocolBench.Rest.Api;

public static class RestApiExtensions
{
    public static WebApplicationBuilder AddRestApi(this WebApplicationBuilder builder)
    {
        builder.Services.AddControllers(o =>
            {
                o.Filters.Add<DomainExceptionFilter>();
                o.Filters.Add<ResponseBudgetFilter>();
            })
            // The serializer's own messages name internal types ("could not be converted to ...AuthorInput"); say less.
            .AddJsonOptions(o => o.AllowInputFormatterExceptionMessages = false)
            // Binding failures (count=abc, id=99999999999, malformed JSON) read like every other invalid argument.
            .ConfigureApiBehaviorOptions(o => o.InvalidModelStateResponseFactory = BindingFailures.Answer);
        builder.Services.PostConfigure<MvcOptions>(o =>
        {
            // One rule for text on every protocol: the domain judges what was sent, so "   " reads "must contain a visible
            // character" here too (MVC would turn it into null first), and a request body is UTF-8 JSON (MVC would also
            // transcode UTF-16; GraphQL and gRPC take UTF-8 only): another charset is 415.
            o.ModelMetadataDetailsProviders.Add(new TextAsSent());
            foreach (var encodings in o.InputFormatters.OfType<SystemTextJsonInputFormatter>().Select(f => f.SupportedEncodings))
            {
                foreach (var other in encodings.Where(e => e.CodePage != Encoding.UTF8.CodePage).ToList())
                {
                    encodings.Remove(other);
                }
            }
        });
        builder.Services.AddProblemDetails(o => o.CustomizeProblemDetails = c =>
        {
            c.ProblemDetails.Extensions.Remove("traceId");
            if (c.ProblemDetails.Status == StatusCodes.Status415UnsupportedMediaType)
            {
                // The same words as GraphQL's 415.
                c.ProblemDetails.Detail = "Send the request as UTF-8 JSON: Content-Type: application/json (with no charset, or charset=utf-8).";
                c.ProblemDetails.Extensions["code"] = "UNSUPPORTED_MEDIA_TYPE";
            }
        });
        // Kestrel's own refusals (413 body too large, 408 slow body) keep their status instead of becoming a 500.
        builder.Services.Configure<ExceptionHandlerOptions>(o => o.StatusCodeSelector = e =>
            e is BadHttpRequestException bad ? bad.StatusCode : StatusCodes.Status500InternalServerError);
        builder.Services.AddOpenApi();
        builder.Services.AddSingleton<IOperationBindings, RestOperationBindings>();
        return builder;
    }

    /// <summary>The controllers and the OpenAPI document.</summary>
    public static WebApplication MapRestApi(this WebApplication app)
    {
        app.MapControllers();
        app.MapOpenApi();
        return app;
    }
}
