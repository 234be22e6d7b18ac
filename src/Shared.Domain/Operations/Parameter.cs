namespace ProtocolBench.Shared.Domain.Operations;

/// <summary>
/// One argument of an operation, by the name every protocol gives it (a REST route or query parameter or a field of
/// its JSON body, a protobuf field, a GraphQL argument, a hub method's parameter) and in the hub method's order.
/// </summary>
public sealed record Parameter(string Name, ParameterKind Kind, bool IsRequired = false)
{
    public static Parameter Text(string name) => new(name, ParameterKind.Text);

    public static Parameter Int(string name) => new(name, ParameterKind.Int);

    /// <summary>An integer every protocol requires (an id): a route segment in REST, <c>Int!</c> in GraphQL.</summary>
    public static Parameter RequiredInt(string name) => new(name, ParameterKind.Int, IsRequired: true);

    /// <summary>Whether a value may be passed for it: null (a missing value, which tests send on purpose) or its kind.</summary>
    public bool Accepts(object? value) => value is null || (Kind == ParameterKind.Text ? value is string : value is int);
}
