using System.Collections.Concurrent;
using System.Text.Json;
using System.Text.Json.Serialization.Metadata;

namespace ProtocolBench.Shared.Clients;

/// <summary>
/// An operation's GraphQL request (<see cref="Operation.GraphQL"/>, e.g. <c>query searchAuthors</c>), made once: the
/// document asks for the root field with every parameter as a variable of its name and selects every field REST
/// returns (<see cref="GraphQLSelection"/>); the body is <c>{query, variables}</c> with the values left out omitted, as
/// REST leaves absent query parameters out. A shape's selection goes as deep as its kind, so its documents are one per kind.
/// The answer is read with System.Text.Json's own contract customization: <see cref="GraphQLField{T}"/>'s one property
/// takes the root field's name, in serializer options of the operation's own.
/// </summary>
internal sealed class GraphQLDocument
{
    private static readonly ConcurrentDictionary<Operation, GraphQLDocument> Documents = new();

    private readonly Operation _operation;
    private readonly string _type;
    private readonly ConcurrentDictionary<string, (string Query, byte[]? Body)> _bySelection = new();
    private readonly Func<string, (string Query, byte[]? Body)> _compose;

    private GraphQLDocument(Operation operation)
    {
        var address = operation.GraphQL ?? throw new NotSupportedException($"GraphQL does not offer {operation.Name}.");
        var space = address.IndexOf(' ');
        _operation = operation;
        _type = address[..space];
        Field = address[(space + 1)..];
        _compose = Compose;
        var options = new JsonSerializerOptions(GraphQLJsonContext.Default.Options)
        {
            TypeInfoResolver = GraphQLJsonContext.Default.WithAddedModifier(info =>
            {
                if (info.Type.IsGenericType && info.Type.GetGenericTypeDefinition() == typeof(GraphQLField<>))
                {
                    info.Properties[0].Name = Field;
                }
            }),
        };
        var value = operation.ResultType.IsValueType ? typeof(Nullable<>).MakeGenericType(operation.ResultType) : operation.ResultType;
        Response = options.TryGetTypeInfo(typeof(GraphQLResponse<>).MakeGenericType(value), out var info)
            ? info
            : throw new NotSupportedException($"The GraphQL client reads no {operation.ResultType.Name}: add its response to GraphQLJsonContext.");
    }

    /// <summary>The root field, e.g. searchAuthors.</summary>
    public string Field { get; }

    public static GraphQLDocument Of(Operation operation) => Documents.GetOrAdd(operation, static o => new GraphQLDocument(o));

    /// <summary>How its answer is read: <c>{"data": {"&lt;field&gt;": …}, "errors": […]}</c>, as an <see cref="IGraphQLResponse"/>.</summary>
    public JsonTypeInfo Response { get; }

    public byte[] Body(OperationCall call)
    {
        var (query, fixedBody) = _bySelection.GetOrAdd(GraphQLSelection.Of(call), _compose);
        return fixedBody ?? Write(query, call);
    }

    /// <summary>
    /// <c>{"query": …, "variables": {…}}</c>, the values left out omitted; without a call, the query alone. Serialized by
    /// System.Text.Json into its pooled buffers, so only the body itself is allocated.
    /// </summary>
    private byte[] Write(string query, OperationCall? call)
    {
        Dictionary<string, object>? variables = null;
        if (call is not null)
        {
            variables = new Dictionary<string, object>(_operation.Parameters.Count);
            for (var i = 0; i < _operation.Parameters.Count; i++)
            {
                if (call.Values[i] is { } value)
                {
                    variables[_operation.Parameters[i].Name] = value;
                }
            }
        }

        return JsonSerializer.SerializeToUtf8Bytes(new GraphQLRequest(query, variables), GraphQLJsonContext.Default.GraphQLRequest);
    }

    /// <summary>The document for one selection; an operation without parameters has one body, made here.</summary>
    private (string Query, byte[]? Body) Compose(string selection)
    {
        var parameters = _operation.Parameters;
        if (parameters.Count == 0)
        {
            var query = $"{(_type == "query" ? "" : _type + " ")}{{ {Field}{selection} }}";
            return (query, Write(query, call: null));
        }

        var variables = string.Join(", ", parameters.Select(p => $"${p.Name}: {(p.Kind == ParameterKind.Text ? "String" : "Int")}{(p.IsRequired ? "!" : "")}"));
        var arguments = string.Join(", ", parameters.Select(p => $"{p.Name}: ${p.Name}"));
        return ($"{_type} {_operation.Name}({variables}) {{ {Field}({arguments}){selection} }}", null);
    }
}
