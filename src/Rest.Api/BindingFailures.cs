namespace ProtocolBench.Rest.Api;

/// <summary>
/// What MVC could not bind (a route or query value that is not an Int32, JSON that does not read as the body) answered as
/// the domain answers an invalid argument: 400, <c>code: INVALID_ARGUMENT</c>, the field, and for a whole number the words
/// every protocol uses (<see cref="Validate.NotAnInt32"/>). The first failure is the answer, as it is on the other protocols.
/// </summary>
internal static class BindingFailures
{
    public static IActionResult Answer(ActionContext context)
    {
        var (key, entry) = context.ModelState.First(e => e.Value is { Errors.Count: > 0 });
        var field = key.StartsWith("$.", StringComparison.Ordinal) ? key[2..] : key.TrimStart('$');
        var type = context.ActionDescriptor.Parameters.FirstOrDefault(p => p.Name == key)?.ParameterType;
        var error = type is not null && (Nullable.GetUnderlyingType(type) ?? type) == typeof(int)
            ? Validate.NotAnInt32(field)
            : DomainException.Invalid(field, entry!.Errors[0].ErrorMessage is { Length: > 0 } message ? message : "The request body does not read as this operation's JSON.");
        var problem = DomainExceptionFilter.ProblemOf(error);
        return new BadRequestObjectResult(problem) { ContentTypes = { "application/problem+json" } };
    }
}
