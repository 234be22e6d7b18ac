using System.Text.Json.Serialization.Metadata;

namespace ProtocolBench.Shared.Clients;

/// <summary>How the REST client reads an answer of type <typeparamref name="T"/>, worked out once per type.</summary>
internal static class RestAnswer<T>
{
    /// <summary>A scalar or an array of scalars, which REST answers as an object of one property (<c>{"values":[…]}</c>).</summary>
    public static readonly bool IsWrapped =
        typeof(T) == typeof(string) || typeof(T).IsPrimitive || (typeof(T).IsArray && typeof(T).GetElementType()!.IsPrimitive);

    public static readonly JsonTypeInfo<OneProperty<T>> Wrapped = IsWrapped ? Info<OneProperty<T>>() : null!;

    /// <summary>The value as plain JSON: REST's answer when it is not wrapped, and a hub method's result as another stack hands it over.</summary>
    public static readonly JsonTypeInfo<T> Json = Info<T>();

    private static JsonTypeInfo<TInfo> Info<TInfo>() =>
        (JsonTypeInfo<TInfo>?)RestJsonContext.Default.GetTypeInfo(typeof(TInfo))
        ?? throw new NotSupportedException($"The REST client reads no {typeof(TInfo).Name}: add it to RestJsonContext.");
}
