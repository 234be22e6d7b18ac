using GraphQL.SystemTextJson;

namespace ProtocolBench.GraphQL.Api;

/// <summary>graphql-dotnet's System.Text.Json serializer, with its options at hand, so an answer can be written to the response's <c>PipeWriter</c>.</summary>
public sealed class GraphQLJson(Action<JsonSerializerOptions> configure) : GraphQLSerializer(configure)
{
    public JsonSerializerOptions Options => SerializerOptions;
}
