using GraphQL.Transport;
using Microsoft.Net.Http.Headers;
using ProtocolBench.Shared.Hosting.Answers;

namespace ProtocolBench.GraphQL.Api;

/// <summary>
/// GraphQL over HTTP (the GraphQL Foundation's spec, the 2025 working draft: graphql-over-http@127bbfd), written here
/// because GraphQL.Server.Transports.AspNetCore is not on the package source.
/// POST application/json (UTF-8) {query, variables, operationName, extensions}; GET ?query=&amp;variables=&amp;operationName=
/// for queries only. The response type follows Accept (by quality): application/graphql-response+json when it is
/// preferred; application/json when that is, or for a wildcard or no Accept; 406 when neither is acceptable.
/// With application/graphql-response+json: 200 once the operation executed (field errors are in <c>errors</c>); 400 for a
/// document that does not parse or validate or variables that do not coerce, with nothing executed; 504 when the
/// execution budget ran out. With application/json the spec asks for 200 for every well-formed request, and those
/// answers are 200 with <c>errors</c>. Either way: 400 for a request that is not well-formed (malformed JSON, no query,
/// a batch); 405 for a mutation over GET; 413 for a body over 1 MiB; 415 for a body that is not UTF-8 JSON.
/// </summary>
public sealed class GraphQLEndpoint(
    IDocumentExecuter<ISchema> executer, GraphQLJson serializer, IConfiguration configuration, ResponseBudget budget, PayloadFiles files, SharedAnswers answers)
{
    public const string Path = "/graphql";

    /// <summary>At most this many errors are returned; the rest are counted in one more error.</summary>
    public const int MaxErrors = 20;

    /// <summary>
    /// The engine's own budget for parsing, validating and executing ends a second before the server's request timeout, so
    /// a request that runs out of time gets 504 with a GraphQL error (TIMEOUT) instead of an empty 504.
    /// </summary>
    private readonly TimeSpan _executionTimeout = ExecutionTimeout(ServiceDefaults.RequestTimeout(configuration));



    public async Task PostAsync(HttpContext http)
    {
        if (ResponseTypes.Negotiate(http.Request) is not { } responseType)
        {
            await WriteNotAcceptableAsync(http);
            return;
        }

        if (!MediaTypeHeaderValue.TryParse(http.Request.ContentType, out var contentType)
            || !contentType.MediaType.Equals("application/json", StringComparison.OrdinalIgnoreCase)
            || !ResponseTypes.IsUtf8(contentType.Charset))
        {
            await WriteRequestErrorAsync(http, responseType, StatusCodes.Status415UnsupportedMediaType, "UNSUPPORTED_MEDIA_TYPE",
                "Send the request as UTF-8 JSON: Content-Type: application/json (with no charset, or charset=utf-8).");
            return;
        }

        GraphQLRequest? request;
        try
        {
            // Batching is off: a JSON array is refused before anything is parsed or executed.
            if (await RequestBody.StartsWithArrayAsync(http.Request.BodyReader, http.RequestAborted))
            {
                await WriteRequestErrorAsync(http, responseType, StatusCodes.Status400BadRequest, "BATCHING_NOT_SUPPORTED", "Batched requests (a JSON array) are not accepted; send one request object.");
                return;
            }

            request = await serializer.ReadAsync<GraphQLRequest>(http.Request.Body, http.RequestAborted);
        }
        catch (Exception e) when (MalformedRequests.StatusOf(e) is { } status)
        {
            // Kestrel's MaxRequestBodySize (Limits.RequestBodyMaxBytes) stops the read with 413; broken framing is 400.
            await (status == StatusCodes.Status413PayloadTooLarge
                ? WriteRequestErrorAsync(http, responseType, status, "REQUEST_TOO_LARGE", $"The request body is larger than {Limits.RequestBodyMaxBytes} bytes.")
                : WriteRequestErrorAsync(http, responseType, status, "BAD_REQUEST", "The request could not be read: its framing or body is malformed."));
            return;
        }
        catch (DomainException e)
        {
            await WriteInvalidArgumentAsync(http, responseType, e);
            return;
        }
        catch (JsonException)
        {
            request = null;
        }

        if (request is null)
        {
            await WriteRequestErrorAsync(http, responseType, StatusCodes.Status400BadRequest, "INVALID_JSON", "The body is not a JSON object with query, variables and operationName.");
            return;
        }

        await ExecuteAsync(http, responseType, request, queriesOnly: false);
    }

    public async Task GetAsync(HttpContext http)
    {
        if (ResponseTypes.Negotiate(http.Request) is not { } responseType)
        {
            await WriteNotAcceptableAsync(http);
            return;
        }

        if (QueryStrings.NotUtf8(http.Request) is { } notUtf8)
        {
            await WriteInvalidArgumentAsync(http, responseType, notUtf8);
            return;
        }

        QueryStrings.TakeLastValues(http.Request);
        var parameters = http.Request.Query;
        Inputs? variables = null;
        if (parameters["variables"].ToString() is { Length: > 0 } json)
        {
            try
            {
                variables = serializer.Deserialize<Inputs>(json);
            }
            catch (DomainException e)
            {
                await WriteInvalidArgumentAsync(http, responseType, e);
                return;
            }
            catch (JsonException)
            {
                await WriteRequestErrorAsync(http, responseType, StatusCodes.Status400BadRequest, "INVALID_JSON", "The variables parameter is not a JSON object.");
                return;
            }
        }

        var request = new GraphQLRequest
        {
            Query = parameters["query"].ToString() is { Length: > 0 } query ? query : null,
            OperationName = parameters["operationName"].ToString() is { Length: > 0 } name ? name : null,
            Variables = variables,
        };
        await ExecuteAsync(http, responseType, request, queriesOnly: true);
    }

    private async Task ExecuteAsync(HttpContext http, ResponseType responseType, GraphQLRequest request, bool queriesOnly)
    {
        if (string.IsNullOrEmpty(request.Query))
        {
            await WriteRequestErrorAsync(http, responseType, StatusCodes.Status400BadRequest, "QUERY_MISSING", "The request has no query.");
            return;
        }

        var userContext = new Dictionary<string, object?>();
        var options = new ExecutionOptions
        {
            Query = request.Query,
            Variables = request.Variables,
            OperationName = request.OperationName,
            RequestServices = http.RequestServices,
            UserContext = userContext,
            CancellationToken = http.RequestAborted,
            Timeout = _executionTimeout,
            Listeners = { new ResponseBudgetListener(budget, files, http) },
        };
        if (queriesOnly)
        {
            // The configured rules (cost, introspection) are appended to these by the executer.
            options.ValidationRules = DocumentValidator.CoreRules.Append(QueriesOnlyRule.Instance);
        }

        var result = await executer.ExecuteAsync(options);

        if (http.Request.Headers[Cost.ReportHeader] == "report" && Cost.Reported(userContext) is { } cost)
        {
            (result.Extensions ??= new Dictionary<string, object?>())["cost"] = cost.ToExtension();
        }

        var response = http.Response;
        response.StatusCode = StatusOf(result, responseType);
        LimitErrors(result);
        if (response.StatusCode == StatusCodes.Status405MethodNotAllowed)
        {
            response.Headers.Allow = "POST";
        }

        response.ContentType = ResponseTypes.ContentTypeOf(responseType);
        // Into the response's own buffers, charged as written (GraphQLSerializer.WriteAsync would build the whole answer in
        // one buffer from the shared array pool first); a file's base64 by reference, from the copy every caller shares
        // (SharedBase64Converter), sent a piece at a time at the last flush.
        var body = new SplicingWriter(http, answers, http.Response.BodyWriter);
        SplicingWriter.Current = body;
        await JsonSerializer.SerializeAsync(new ChargedResponseWriter(http, budget, body), result, serializer.Options, http.RequestAborted);
        if (body.HasSplices)
        {
            await body.FlushAsync(http.RequestAborted);
        }
    }

    private static TimeSpan ExecutionTimeout(TimeSpan request) =>
        request > TimeSpan.FromSeconds(2) ? request - TimeSpan.FromSeconds(1) : request / 2;

    private static int StatusOf(ExecutionResult result, ResponseType responseType)
    {
        // The spec's GET rule holds for both types: a mutation over GET is 405.
        if (result.Errors?.Any(e => e is QueriesOnlyError) == true)
        {
            return StatusCodes.Status405MethodNotAllowed;
        }

        return responseType == ResponseType.Json ? StatusCodes.Status200OK : GraphQLResponseStatusOf(result);
    }

    private static int GraphQLResponseStatusOf(ExecutionResult result)
    {
        if (result.Executed)
        {
            return StatusCodes.Status200OK;
        }

        if (result.Errors?.Any(e => e is TimeoutError) == true)
        {
            return StatusCodes.Status504GatewayTimeout;
        }

        return result.Errors?.Any(e => e.Code == ClientErrors.Internal) == true
            ? StatusCodes.Status500InternalServerError
            : StatusCodes.Status400BadRequest;
    }

    private static void LimitErrors(ExecutionResult result)
    {
        if (result.Errors is not { Count: > MaxErrors } errors)
        {
            return;
        }

        var kept = new ExecutionErrors();
        foreach (var error in errors.Take(MaxErrors))
        {
            kept.Add(error);
        }

        kept.Add(new ExecutionError($"{errors.Count - MaxErrors} more errors are not shown.") { Code = "TOO_MANY_ERRORS" });
        result.Errors = kept;
    }

    private Task WriteRequestErrorAsync(HttpContext http, ResponseType responseType, int status, string code, string message)
    {
        http.Response.StatusCode = status;
        http.Response.ContentType = ResponseTypes.ContentTypeOf(responseType);
        var result = new ExecutionResult(new ExecutionError(message) { Code = code });
        return serializer.WriteAsync(http.Response.Body, result, http.RequestAborted);
    }

    /// <summary>A request refused before it is parsed (a number too long, a query string that is not UTF-8): 400 with the domain's code.</summary>
    private Task WriteInvalidArgumentAsync(HttpContext http, ResponseType responseType, DomainException error) =>
        WriteRequestErrorAsync(http, responseType, StatusCodes.Status400BadRequest, error.WireCode, error.Message);

    private Task WriteNotAcceptableAsync(HttpContext http) =>
        WriteRequestErrorAsync(http, ResponseType.Json, StatusCodes.Status406NotAcceptable, "NOT_ACCEPTABLE",
            "Accept application/graphql-response+json or application/json.");
}
