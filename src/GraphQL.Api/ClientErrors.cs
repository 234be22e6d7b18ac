using GraphQL.Validation.Errors;

namespace ProtocolBench.GraphQL.Api;

/// <summary>What a client sees in <c>errors</c>: a message and <c>extensions.code</c> (plus <c>field</c> for domain errors).</summary>
internal static class ClientErrors
{
    public const string Internal = "INTERNAL";

    /// <summary>
    /// A resolver's <see cref="Shared.Domain.DomainException"/> becomes an error with the domain's message and code
    /// (INVALID_ARGUMENT, NOT_FOUND, UNAVAILABLE); anything else becomes a generic message, logged on the server only.
    /// </summary>
    public static void Translate(UnhandledExceptionContext context)
    {
        if (context.OriginalException.ToClientError() is { } error)
        {
            context.Exception = new ExecutionError(error.Message)
            {
                Code = error.WireCode,
                Extensions = new Dictionary<string, object?> { ["field"] = error.Field },
            };
            return;
        }

        var logger = context.ExecutionOptions.RequestServices?.GetService<ILoggerFactory>()?.CreateLogger("ProtocolBench.GraphQL.Api");
        // The execution's token is the request's RequestAborted.
        if (MalformedRequests.IsClientAbort(context.OriginalException, context.ExecutionOptions.CancellationToken))
        {
            logger?.LogDebug("The client went away during GraphQL field {Field}: {Reason}", context.FieldContext?.FieldDefinition.Name, context.OriginalException.Message);
        }
        else
        {
            logger?.LogError(context.OriginalException, "Unhandled exception in GraphQL field {Field}", context.FieldContext?.FieldDefinition.Name);
        }

        context.Exception = new ExecutionError("An internal error occurred.") { Code = Internal };
    }
}

/// <summary>Only <c>message</c> and <c>extensions.code</c> (and the error's own extensions): no exception types, data or stack traces.</summary>
internal sealed class ClientErrorInfoProvider : IErrorInfoProvider
{
    public ErrorInfo GetInfo(ExecutionError executionError)
    {
        var extensions = new Dictionary<string, object?>(2) { ["code"] = Code(executionError) };
        if (executionError.Extensions is { } own)
        {
            foreach (var (key, value) in own)
            {
                extensions[key] = value;
            }
        }

        return new ErrorInfo { Message = executionError.Message, Extensions = extensions };
    }

    // A value of the wrong type (count: "abc", id: 99999999999) is an invalid argument, as REST's binding failures are.
    private static string Code(ExecutionError error) => error switch
    {
        ArgumentsOfCorrectTypeError or InvalidVariableError or InvalidLiteralError or InvalidValueError or ProvidedNonNullArgumentsError
            => "INVALID_ARGUMENT",
        _ => error.Code ?? ClientErrors.Internal,
    };
}
