using System.Collections.Concurrent;
using System.Globalization;
using System.Text.Json;

namespace ProtocolBench.Shared.Clients;

/// <summary>
/// An operation's REST address (<see cref="Operation.Rest"/>, e.g. <c>PUT api/authors/{id}</c>), read once: its verb, its
/// route, and where each argument goes (a route segment, the query of a GET or DELETE, the JSON body of a POST or PUT,
/// a sized one as the other clients send). A value left out is left out of the query and is null in the body.
/// </summary>
internal sealed class RestRoute
{
    private static readonly ConcurrentDictionary<Operation, RestRoute> Routes = new();

    private readonly string _template;
    private readonly IReadOnlyList<Parameter> _parameters;
    private readonly bool[] _inRoute;
    private readonly bool _hasBody;

    private RestRoute(Operation operation)
    {
        var address = operation.Rest ?? throw new NotSupportedException($"REST does not offer {operation.Name}.");
        var space = address.IndexOf(' ');
        Method = HttpMethod.Parse(address.AsSpan(0, space));
        _template = address[(space + 1)..];
        _parameters = operation.Parameters;
        _inRoute = [.. _parameters.Select(p => _template.Contains($"{{{p.Name}}}", StringComparison.Ordinal))];
        _hasBody = Method == HttpMethod.Post || Method == HttpMethod.Put;
    }

    public HttpMethod Method { get; }

    public static RestRoute Of(Operation operation) => Routes.GetOrAdd(operation, static o => new RestRoute(o));

    public string Path(OperationCall call)
    {
        var path = _template;
        List<string>? query = null;
        for (var i = 0; i < _parameters.Count; i++)
        {
            var value = call.Values[i];
            if (_inRoute[i])
            {
                path = path.Replace($"{{{_parameters[i].Name}}}", Escape(value), StringComparison.Ordinal);
            }
            else if (!_hasBody && value is not null)
            {
                (query ??= []).Add($"{_parameters[i].Name}={Escape(value)}");
            }
        }

        return query is null ? path : $"{path}?{string.Join('&', query)}";
    }

    public HttpContent? Body(OperationCall call)
    {
        if (BodyBytes(call) is not { } bytes)
        {
            return null;
        }

        var content = new ByteArrayContent(bytes);
        content.Headers.ContentType = new(ContentType) { CharSet = "utf-8" };
        return content;
    }

    /// <summary>The media type of a body (its charset is utf-8).</summary>
    public static string ContentType => "application/json";

    /// <summary>A POST's or PUT's JSON body, the arguments not in the route; null for a verb without one.</summary>
    public byte[]? BodyBytes(OperationCall call)
    {
        if (!_hasBody)
        {
            return null;
        }

        var body = new Dictionary<string, object?>(_parameters.Count);
        for (var i = 0; i < _parameters.Count; i++)
        {
            if (!_inRoute[i])
            {
                body[_parameters[i].Name] = call.Values[i];
            }
        }

        return JsonSerializer.SerializeToUtf8Bytes(body, RestJsonContext.Default.DictionaryStringObject);
    }

    private static string Escape(object? value) =>
        Uri.EscapeDataString(value switch
        {
            null => "",
            int number => number.ToString(CultureInfo.InvariantCulture),
            _ => (string)value,
        });
}
