using GraphQL.SystemTextJson;

namespace ProtocolBench.GraphQL.Api;

/// <summary>
/// graphql-dotnet's System.Text.Json serializer, with its options at hand, so an answer can be written to the response's
/// <c>PipeWriter</c>. It writes each error through <see cref="ClientErrorInfoProvider"/>: the serializer is made here, not
/// by the container, so the provider registered there never reached it, and errors went out with graphql-dotnet's own
/// codes (<c>ARGUMENTS_OF_CORRECT_TYPE</c>) and its <c>codes</c> and <c>number</c> extensions.
/// </summary>
public sealed class GraphQLJson(Action<JsonSerializerOptions> configure) : GraphQLSerializer(configure, new ClientErrorInfoProvider())
{
    public JsonSerializerOptions Options => SerializerOptions;
}
