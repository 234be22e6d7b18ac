using System.Buffers;
using System.IO.Pipelines;
using System.Text.Json;
using GraphQL;
using GraphQL.Transport;
using GraphQL.Types;
using GraphQL.Validation;
using GraphQLParser.AST;
using Microsoft.Net.Http.Headers;
using GraphQL.Execution;
using ProtocolBench.Shared.Domain;
using ProtocolBench.Shared.Hosting;

namespace ProtocolBench.GraphQL.Api;

/// <summary>
/// GraphQL over HTTP, written here because GraphQL.Server.Transports.AspNetCore is not on the package source.
/// POST application/json {query, variables, operationName}; GET ?query=&amp;variables=&amp;operationName= for queries only.
/// Status: 200 once the operation executed (field errors are in <c>errors</c>); 400 for a request that is not valid
/// (malformed JSON, a batch, parse or validation errors, depth or cost over the limit), with nothing executed;
/// 405 for a mutation over GET; 413 for a body over 1 MiB; 415 for a body that is not JSON.
/// </summary>
public sealed class GraphQLEndpoint(IDocumentExecuter<ISchema> executer, IGraphQLTextSerializer serializer, IConfiguration configuration)
{
    public const string Path = "/graphql";

    /// <summary>At most this many errors are returned; the rest are counted in one more error.</summary>
    public const int MaxErrors = 20;

    /// <summary>
    /// The engine's own budget for parsing, validating and executing ends a second before the server's request timeout, so
    /// a request that runs out of time gets 504 with a GraphQL error (TIMEOUT) instead of an empty 504.
    /// </summary>
    private readonly TimeSpan _executionTimeout = TimeSpan.FromTicks(Math.Max(
        ServiceDefaults.RequestTimeout(configuration).Ticks - TimeSpan.TicksPerSecond, ServiceDefaults.RequestTimeout(configuration).Ticks / 2));

    private const string GraphQLResponseJson = "application/graphql-response+json; charset=utf-8";
    private const string Json = "application/json; charset=utf-8";

    public async Task PostAsync(HttpContext http)
    {
        if (!MediaTypeHeaderValue.TryParse(http.Request.ContentType, out var contentType)
            || !contentType.MediaType.Equals("application/json", StringComparison.OrdinalIgnoreCase))
        {
            await WriteRequestErrorAsync(http, StatusCodes.Status415UnsupportedMediaType, "UNSUPPORTED_MEDIA_TYPE", "Send the request as Content-Type: application/json.");
            return;
        }

        GraphQLRequest? request;
        try
        {
            // Batching is off: a JSON array is refused before anything is parsed or executed.
            if (await StartsWithArrayAsync(http.Request.BodyReader, http.RequestAborted))
            {
                await WriteRequestErrorAsync(http, StatusCodes.Status400BadRequest, "BATCHING_NOT_SUPPORTED", "Batched requests (a JSON array) are not accepted; send one request object.");
                return;
            }

            request = await serializer.ReadAsync<GraphQLRequest>(http.Request.Body, http.RequestAborted);
        }
        catch (BadHttpRequestException e)
        {
            // Kestrel's MaxRequestBodySize (Limits.RequestBodyMaxBytes) stops the read with 413; keep Kestrel's status.
            await (e.StatusCode == StatusCodes.Status413PayloadTooLarge
                ? WriteRequestErrorAsync(http, e.StatusCode, "REQUEST_TOO_LARGE", $"The request body is larger than {Limits.RequestBodyMaxBytes} bytes.")
                : WriteRequestErrorAsync(http, e.StatusCode, "BAD_REQUEST", "The request body could not be read."));
            return;
        }
        catch (JsonException)
        {
            request = null;
        }

        if (request is null)
        {
            await WriteRequestErrorAsync(http, StatusCodes.Status400BadRequest, "INVALID_JSON", "The body is not a JSON object with query, variables and operationName.");
            return;
        }

        await ExecuteAsync(http, request, queriesOnly: false);
    }

    public async Task GetAsync(HttpContext http)
    {
        var parameters = http.Request.Query;
        Inputs? variables = null;
        if (parameters["variables"].ToString() is { Length: > 0 } json)
        {
            try
            {
                variables = serializer.Deserialize<Inputs>(json);
            }
            catch (JsonException)
            {
                await WriteRequestErrorAsync(http, StatusCodes.Status400BadRequest, "INVALID_JSON", "The variables parameter is not a JSON object.");
                return;
            }
        }

        var request = new GraphQLRequest
        {
            Query = parameters["query"].ToString() is { Length: > 0 } query ? query : null,
            OperationName = parameters["operationName"].ToString() is { Length: > 0 } name ? name : null,
            Variables = variables,
        };
        await ExecuteAsync(http, request, queriesOnly: true);
    }

    private async Task ExecuteAsync(HttpContext http, GraphQLRequest request, bool queriesOnly)
    {
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
        response.StatusCode = StatusOf(result);
        LimitErrors(result);
        if (response.StatusCode == StatusCodes.Status405MethodNotAllowed)
        {
            response.Headers.Allow = "POST";
        }

        response.ContentType = ContentTypeFor(http.Request);
        await serializer.WriteAsync(response.Body, result, http.RequestAborted);
    }

    private static int StatusOf(ExecutionResult result)
    {
        if (result.Executed)
        {
            return StatusCodes.Status200OK;
        }

        if (result.Errors?.Any(e => e is QueriesOnlyError) == true)
        {
            return StatusCodes.Status405MethodNotAllowed;
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

    private Task WriteRequestErrorAsync(HttpContext http, int status, string code, string message)
    {
        http.Response.StatusCode = status;
        http.Response.ContentType = ContentTypeFor(http.Request);
        var result = new ExecutionResult(new ExecutionError(message) { Code = code });
        return serializer.WriteAsync(http.Response.Body, result, http.RequestAborted);
    }

    // GraphQL over HTTP: application/graphql-response+json when the client asks for it, else application/json.
    private static string ContentTypeFor(HttpRequest request) =>
        request.Headers.Accept.ToString().Contains("application/graphql-response+json", StringComparison.OrdinalIgnoreCase)
            ? GraphQLResponseJson
            : Json;

    /// <summary>Looks at the first non-whitespace byte of the body without consuming it.</summary>
    private static async Task<bool> StartsWithArrayAsync(PipeReader body, CancellationToken cancellationToken)
    {
        while (true)
        {
            var read = await body.ReadAsync(cancellationToken);
            var buffer = read.Buffer;
            var first = FirstNonWhitespace(buffer);
            if (first is not null || read.IsCompleted)
            {
                body.AdvanceTo(buffer.Start);
                return first == (byte)'[';
            }

            body.AdvanceTo(buffer.Start, buffer.End);
        }
    }

    private static byte? FirstNonWhitespace(ReadOnlySequence<byte> buffer)
    {
        foreach (var segment in buffer)
        {
            foreach (var b in segment.Span)
            {
                if (b is not ((byte)' ' or (byte)'\t' or (byte)'\r' or (byte)'\n'))
                {
                    return b;
                }
            }
        }

        return null;
    }

    /// <summary>GET may only read: a mutation over GET is refused at validation (405), before it could run.</summary>
    private sealed class QueriesOnlyRule : ValidationRuleBase
    {
        public static readonly QueriesOnlyRule Instance = new();

        public override ValueTask<INodeVisitor?> GetPreNodeVisitorAsync(ValidationContext context)
        {
            if (context.Operation.Operation != OperationType.Query)
            {
                context.ReportError(new QueriesOnlyError(context.Document.Source, context.Operation));
            }

            return default;
        }
    }

    private sealed class QueriesOnlyError : ValidationError
    {
        public QueriesOnlyError(GraphQLParser.ROM source, GraphQLOperationDefinition operation)
            : base(source, null, $"A {operation.Operation.ToString().ToLowerInvariant()} cannot be sent over GET; use POST.", operation)
        {
            Code = "METHOD_NOT_ALLOWED";
        }
    }
}
