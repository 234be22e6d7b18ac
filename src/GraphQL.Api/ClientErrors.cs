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
