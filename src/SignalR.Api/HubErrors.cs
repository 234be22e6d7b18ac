namespace ProtocolBench.SignalR.Api;

/// <summary>
/// A hub error is a message only (SignalR sends nothing but the text of a <see cref="HubException"/>), so the code leads
/// it: "INVALID_ARGUMENT count: must be at most 100000", the code names of the other protocols and the field. Anything
/// else is logged here and reaches the client as "INTERNAL", with no detail of the exception.
/// </summary>
internal sealed class HubErrors(ILogger<HubErrors> logger) : IHubFilter
{
    public const string Internal = "INTERNAL";

    public const string InvalidArgument = "INVALID_ARGUMENT";

    public const string Unimplemented = "UNIMPLEMENTED";

    public async ValueTask<object?> InvokeMethodAsync(HubInvocationContext invocation, Func<HubInvocationContext, ValueTask<object?>> next)
    {
        try
        {
            return await next(invocation);
        }
        catch (Exception e) when (e.ToClientError() is { } error)
        {
            throw new HubException(Message(error.WireCode, error.Field, error.Message));
        }
        catch (Exception e) when (MalformedRequests.IsClientAbort(e, invocation.Context.ConnectionAborted))
        {
            logger.LogDebug("The client went away during {Method}: {Reason}", invocation.HubMethodName, e.Message);
            throw;
        }
        catch (Exception e) when (e is not HubException)
        {
            logger.LogError(e, "Unhandled exception in hub method {Method}", invocation.HubMethodName);
            throw new HubException(Message(Internal, "", "An internal error occurred."));
        }
    }

    /// <summary>"CODE field: message" ("CODE: message" without a field), the form the client's parser reads back.</summary>
    public static string Message(string code, string field, string message) => field.Length > 0 ? $"{code} {field}: {message}" : $"{code}: {message}";
}
