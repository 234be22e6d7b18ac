namespace ProtocolBench.Rest.Api;

/// <summary>
/// QueryStrings' two rules before MVC binds anything: a query string that is not UTF-8 reads like any invalid argument
/// (400, naming the parameter), and a name given twice means its last value, as on every protocol.
/// </summary>
public static class QueryStringRules
{
    public static WebApplication UseQueryStringRules(this WebApplication app)
    {
        app.Use(async (context, next) =>
        {
            if (QueryStrings.NotUtf8(context.Request) is { } error)
            {
                var problem = DomainExceptionFilter.ProblemOf(error);
                context.Response.StatusCode = problem.Status!.Value;
                await context.Response.WriteAsJsonAsync(problem, options: null, contentType: "application/problem+json");
                return;
            }

            QueryStrings.TakeLastValues(context.Request);
            await next(context);
        });
        return app;
    }
}
