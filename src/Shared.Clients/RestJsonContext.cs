using System.Text.Json;
using System.Text.Json.Serialization;

namespace ProtocolBench.Shared.Clients;

[JsonSourceGenerationOptions(JsonSerializerDefaults.Web)]
[JsonSerializable(typeof(string))]
[JsonSerializable(typeof(int))]
[JsonSerializable(typeof(int[]))]
[JsonSerializable(typeof(OneProperty<string>))]
[JsonSerializable(typeof(OneProperty<int>))]
[JsonSerializable(typeof(OneProperty<int[]>))]
[JsonSerializable(typeof(FilePayload))]
[JsonSerializable(typeof(AuthorDto))]
[JsonSerializable(typeof(IReadOnlyList<AuthorDto>))]
[JsonSerializable(typeof(ShapeDto))]
[JsonSerializable(typeof(IReadOnlyList<ShapeDto>))]
[JsonSerializable(typeof(RestProblem))]
[JsonSerializable(typeof(Dictionary<string, object?>))]
[JsonSerializable(typeof(object?[]))]
internal sealed partial class RestJsonContext : JsonSerializerContext;
