using System.Text.Json;
using System.Text.Json.Serialization;

namespace ProtocolBench.Shared.Clients;

[JsonSourceGenerationOptions(JsonSerializerDefaults.Web, DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull)]
[JsonSerializable(typeof(GraphQLRequest))]
[JsonSerializable(typeof(string))]
[JsonSerializable(typeof(int))]
[JsonSerializable(typeof(GraphQLResponse<string>))]
[JsonSerializable(typeof(GraphQLResponse<int?>))]
[JsonSerializable(typeof(GraphQLResponse<int[]>))]
[JsonSerializable(typeof(GraphQLResponse<bool?>))]
[JsonSerializable(typeof(GraphQLResponse<FilePayload>))]
[JsonSerializable(typeof(GraphQLResponse<AuthorDto>))]
[JsonSerializable(typeof(GraphQLResponse<IReadOnlyList<AuthorDto>>))]
[JsonSerializable(typeof(GraphQLResponse<ShapeDto>))]
[JsonSerializable(typeof(GraphQLResponse<IReadOnlyList<ShapeDto>>))]
internal sealed partial class GraphQLJsonContext : JsonSerializerContext;
