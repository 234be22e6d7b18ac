using GraphQL.Validation.Errors;

namespace ProtocolBench.GraphQL.Api;

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
