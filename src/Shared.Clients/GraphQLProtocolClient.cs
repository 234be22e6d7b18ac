using System.Net.Http.Headers;
using System.Net.Http.Json;
using System.Text.Json;
using System.Text.Json.Serialization;
using System.Text.Json.Serialization.Metadata;

namespace ProtocolBench.Shared.Clients;

/// <summary>
/// GraphQL over HttpClient: POST /graphql, application/json {query, variables}, the documents held in static strings and
/// source-generated System.Text.Json both ways. Every response's <c>errors</c> is checked: the first error becomes a
/// <see cref="ProtocolClientException"/> with its <c>extensions.code</c>.
/// </summary>
public sealed class GraphQLProtocolClient : IProtocolClient
{
    private static readonly byte[] IntMaxBody = Body(GraphQLDocuments.IntMax);
    private static readonly byte[] SampleBody = Body(GraphQLDocuments.Sample);
    private static readonly byte[] TextFileBody = Body(GraphQLDocuments.TextFile);
    private static readonly byte[] PdfBody = Body(GraphQLDocuments.Pdf);

    private readonly HttpClient _http;

    public GraphQLProtocolClient(Transport transport, ClientOptions options)
    {
        Transport = transport;
        _http = new HttpClient(ClientHandlers.Create(options, Wire), disposeHandler: true)
        {
            BaseAddress = options.Addresses.BaseUri(Protocol.GraphQL, transport),
            Timeout = options.CallTimeout,
            DefaultRequestVersion = transport == Transport.Https && options.HttpsUsesHttp2ForRestAndGraphQL
                ? HttpVersion.Version20
                : HttpVersion.Version11,
            DefaultVersionPolicy = HttpVersionPolicy.RequestVersionExact,
        };
    }

    public Protocol Protocol => Protocol.GraphQL;

    public Transport Transport { get; }

    public WireCounter Wire { get; } = new();

    public async Task<string> CloneAsync(string? text, int? count, CancellationToken cancellationToken = default) =>
        (await PostAsync(
            Body(new GraphQLRequest<CloneVariables>(GraphQLDocuments.Clone, new(text, count)), GraphQLJsonContext.Default.CloneRequest),
            GraphQLJsonContext.Default.CloneResponse,
            cancellationToken)).Text ?? throw Empty("clone");

    public async Task<int> GetIntMaxAsync(CancellationToken cancellationToken = default) =>
        (await PostAsync(IntMaxBody, GraphQLJsonContext.Default.IntMaxResponse, cancellationToken)).IntMax;

    public async Task<int[]> GetIntsAsync(int? count, CancellationToken cancellationToken = default) =>
        (await PostAsync(
            Body(new GraphQLRequest<CountVariables>(GraphQLDocuments.Ints, new(count)), GraphQLJsonContext.Default.CountRequest),
            GraphQLJsonContext.Default.IntsResponse,
            cancellationToken)).Ints ?? throw Empty("ints");

    public async Task<AuthorDto> GetSampleAsync(CancellationToken cancellationToken = default) =>
        (await PostAsync(SampleBody, GraphQLJsonContext.Default.SampleResponse, cancellationToken)).Sample ?? throw Empty("sample");

    public async Task<byte[]> GetTextFileAsync(CancellationToken cancellationToken = default) =>
        (await PostAsync(TextFileBody, GraphQLJsonContext.Default.TextFileResponse, cancellationToken)).TextFile?.Data ?? throw Empty("textFile");

    public async Task<byte[]> GetPdfAsync(CancellationToken cancellationToken = default) =>
        (await PostAsync(PdfBody, GraphQLJsonContext.Default.PdfResponse, cancellationToken)).Pdf?.Data ?? throw Empty("pdf");

    /// <summary>GraphQL has no binary form: files travel only as base64 strings inside JSON.</summary>
    public Task<byte[]>? GetTextFileBinaryAsync(CancellationToken cancellationToken = default) => null;

    public Task<byte[]>? GetPdfBinaryAsync(CancellationToken cancellationToken = default) => null;

    public async Task<IReadOnlyList<AuthorDto>> SearchAuthorsAsync(string? phrase, int? limit = null, CancellationToken cancellationToken = default) =>
        (await PostAsync(
            Body(new GraphQLRequest<SearchVariables>(GraphQLDocuments.Search, new(phrase, limit)), GraphQLJsonContext.Default.SearchRequest),
            GraphQLJsonContext.Default.SearchResponse,
            cancellationToken)).SearchAuthors ?? throw Empty("searchAuthors");

    public async Task<IReadOnlyList<AuthorDto>> ListAuthorsAsync(int? skip = null, int? take = null, CancellationToken cancellationToken = default) =>
        (await PostAsync(
            Body(new GraphQLRequest<ListVariables>(GraphQLDocuments.List, new(skip, take)), GraphQLJsonContext.Default.ListRequest),
            GraphQLJsonContext.Default.ListResponse,
            cancellationToken)).Authors ?? throw Empty("authors");

    public async Task<AuthorDto> GetAuthorAsync(int id, CancellationToken cancellationToken = default) =>
        (await PostAsync(
            Body(new GraphQLRequest<AuthorVariables>(GraphQLDocuments.Get, new(id, null, null)), GraphQLJsonContext.Default.AuthorRequest),
            GraphQLJsonContext.Default.AuthorResponse,
            cancellationToken)).Author ?? throw Empty("author");

    public async Task<AuthorDto> CreateAuthorAsync(string? name, string? country, CancellationToken cancellationToken = default) =>
        (await PostAsync(
            Body(new GraphQLRequest<AuthorVariables>(GraphQLDocuments.Create, new(null, name, country)), GraphQLJsonContext.Default.AuthorRequest),
            GraphQLJsonContext.Default.CreateResponse,
            cancellationToken)).CreateAuthor ?? throw Empty("createAuthor");

    public async Task<AuthorDto> UpdateAuthorAsync(int id, string? name, string? country, CancellationToken cancellationToken = default) =>
        (await PostAsync(
            Body(new GraphQLRequest<AuthorVariables>(GraphQLDocuments.Update, new(id, name, country)), GraphQLJsonContext.Default.AuthorRequest),
            GraphQLJsonContext.Default.UpdateResponse,
            cancellationToken)).UpdateAuthor ?? throw Empty("updateAuthor");

    public async Task DeleteAuthorAsync(int id, CancellationToken cancellationToken = default)
    {
        var data = await PostAsync(
            Body(new GraphQLRequest<AuthorVariables>(GraphQLDocuments.Delete, new(id, null, null)), GraphQLJsonContext.Default.AuthorRequest),
            GraphQLJsonContext.Default.DeleteResponse,
            cancellationToken);
        if (data.DeleteAuthor != true)
        {
            throw Empty("deleteAuthor");
        }
    }

    /// <summary>Every field at every level of the shape asked for, and no deeper (GraphQLDocuments.Shape).</summary>
    public async Task<ShapeDto> GetShapeAsync(string? kind, int id, CancellationToken cancellationToken = default) =>
        (await PostAsync(
            Body(new GraphQLRequest<ShapeVariables>(GraphQLDocuments.Shape(kind), new(kind, id, null)), GraphQLJsonContext.Default.ShapeRequest),
            GraphQLJsonContext.Default.ShapeResponse,
            cancellationToken)).Shape ?? throw Empty("shape");

    public async Task<IReadOnlyList<ShapeDto>> ListShapesAsync(string? kind, int? count = null, CancellationToken cancellationToken = default) =>
        (await PostAsync(
            Body(new GraphQLRequest<ShapeVariables>(GraphQLDocuments.Shapes(kind), new(kind, null, count)), GraphQLJsonContext.Default.ShapeRequest),
            GraphQLJsonContext.Default.ShapesResponse,
            cancellationToken)).Shapes ?? throw Empty("shapes");

    public ValueTask DisposeAsync()
    {
        _http.Dispose();
        return ValueTask.CompletedTask;
    }

    private static byte[] Body(string document) =>
        Body(new GraphQLRequest<NoVariables>(document, null), GraphQLJsonContext.Default.NoVariablesRequest);

    private static byte[] Body<TVariables>(GraphQLRequest<TVariables> request, JsonTypeInfo<GraphQLRequest<TVariables>> type) =>
        JsonSerializer.SerializeToUtf8Bytes(request, type);

    private async Task<TData> PostAsync<TData>(byte[] body, JsonTypeInfo<GraphQLResponse<TData>> type, CancellationToken cancellationToken)
        where TData : class
    {
        // A byte array with Content-Length, not a chunked stream: the body is small and known.
        using var request = new HttpRequestMessage(HttpMethod.Post, "graphql")
        {
            Content = new ByteArrayContent(body) { Headers = { ContentType = new MediaTypeHeaderValue("application/json") } },
        };
        using var response = await _http.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, cancellationToken);
        var status = (int)response.StatusCode;

        GraphQLResponse<TData>? payload = null;
        if (response.Content.Headers.ContentType?.MediaType is "application/json" or "application/graphql-response+json")
        {
            try
            {
                payload = await response.Content.ReadFromJsonAsync(type, cancellationToken);
            }
            catch (JsonException) when (!response.IsSuccessStatusCode)
            {
            }
        }

        // 200 with errors (the operation ran and failed) or 4xx with errors (the request was refused): both carry a code.
        if (payload?.Errors is [var first, ..])
        {
            var code = first.Extensions?.Code ?? "GRAPHQL_ERROR";
            throw new ProtocolClientException(code, first.Message ?? code, $"GraphQL {code}");
        }

        if (!response.IsSuccessStatusCode)
        {
            throw new ProtocolClientException($"HTTP_{status}", response.ReasonPhrase ?? $"HTTP {status}", $"HTTP {status}");
        }

        return payload?.Data ?? throw new ProtocolClientException("EMPTY_RESPONSE", "The service returned no data.", $"HTTP {status}");
    }

    private static ProtocolClientException Empty(string field) =>
        new("EMPTY_RESPONSE", $"The service returned no value for {field} and no error.", "GraphQL EMPTY_RESPONSE");
}

/// <summary>The operations the client sends, one per IProtocolClient method, selecting every field REST returns.</summary>
public static class GraphQLDocuments
{
    private const string Author = "id name country books { id authorId title year }";
    private const string File = "name contentType data";

    public const string Clone = "query Clone($text: String, $count: Int) { clone(text: $text, count: $count) }";
    public const string IntMax = "{ intMax }";
    public const string Ints = "query Ints($count: Int) { ints(count: $count) }";
    public const string Sample = "{ sample { " + Author + " } }";
    public const string TextFile = "{ textFile { " + File + " } }";
    public const string Pdf = "{ pdf { " + File + " } }";
    public const string Search = "query Search($phrase: String, $limit: Int) { searchAuthors(phrase: $phrase, limit: $limit) { " + Author + " } }";
    public const string List = "query List($skip: Int, $take: Int) { authors(skip: $skip, take: $take) { " + Author + " } }";
    public const string Get = "query Get($id: Int!) { author(id: $id) { " + Author + " } }";
    public const string Create = "mutation Create($name: String, $country: String) { createAuthor(name: $name, country: $country) { " + Author + " } }";
    public const string Update = "mutation Update($id: Int!, $name: String, $country: String) { updateAuthor(id: $id, name: $name, country: $country) { " + Author + " } }";
    public const string Delete = "mutation Delete($id: Int!) { deleteAuthor(id: $id) }";

    private static readonly Dictionary<string, (string One, string Many)> ShapeDocuments = ShapeOperations.Kinds.ToDictionary(
        k => k.Name,
        k => ($"query Shape($kind: String, $id: Int!) {{ shape(kind: $kind, id: $id) {{ {ShapeSelection(k.Levels)} }} }}",
              $"query Shapes($kind: String, $count: Int) {{ shapes(kind: $kind, count: $count) {{ {ShapeSelection(k.Levels)} }} }}"));

    /// <summary>The shape's document: every field on each of its levels (a kind that is not known is asked for one level).</summary>
    public static string Shape(string? kind) => DocumentsFor(kind).One;

    public static string Shapes(string? kind) => DocumentsFor(kind).Many;

    private static (string One, string Many) DocumentsFor(string? kind) =>
        ShapeDocuments[(ShapeOperations.Find(kind) ?? ShapeOperations.Kinds[0]).Name];

    private static string ShapeSelection(int levels) =>
        levels == 1 ? "id name count ratio" : $"id name count ratio children {{ {ShapeSelection(levels - 1)} }}";
}

internal sealed record GraphQLRequest<TVariables>(string Query, TVariables? Variables);

internal sealed record GraphQLResponse<TData>(TData? Data, IReadOnlyList<GraphQLError>? Errors);

internal sealed record GraphQLError(string? Message, GraphQLErrorExtensions? Extensions);

internal sealed record GraphQLErrorExtensions(string? Code, string? Field);

internal sealed record NoVariables;

internal sealed record CloneVariables(string? Text, int? Count);

internal sealed record CountVariables(int? Count);

internal sealed record SearchVariables(string? Phrase, int? Limit);

internal sealed record ListVariables(int? Skip, int? Take);

internal sealed record AuthorVariables(int? Id, string? Name, string? Country);

internal sealed record ShapeVariables(string? Kind, int? Id, int? Count);

internal sealed record ShapeData(ShapeDto? Shape);

internal sealed record ShapesData(List<ShapeDto>? Shapes);

internal sealed record CloneData([property: JsonPropertyName("clone")] string? Text);

internal sealed record IntMaxData(int IntMax);

internal sealed record IntsData(int[]? Ints);

internal sealed record SampleData(AuthorDto? Sample);

internal sealed record TextFileData(FilePayload? TextFile);

internal sealed record PdfData(FilePayload? Pdf);

internal sealed record SearchData(List<AuthorDto>? SearchAuthors);

internal sealed record ListData(List<AuthorDto>? Authors);

internal sealed record AuthorData(AuthorDto? Author);

internal sealed record CreateData(AuthorDto? CreateAuthor);

internal sealed record UpdateData(AuthorDto? UpdateAuthor);

internal sealed record DeleteData(bool? DeleteAuthor);

// Null variables are left out, as REST leaves out absent query parameters; the server reads a missing value as null.
[JsonSourceGenerationOptions(JsonSerializerDefaults.Web, DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull)]
[JsonSerializable(typeof(GraphQLRequest<NoVariables>), TypeInfoPropertyName = "NoVariablesRequest")]
[JsonSerializable(typeof(GraphQLRequest<CloneVariables>), TypeInfoPropertyName = "CloneRequest")]
[JsonSerializable(typeof(GraphQLRequest<CountVariables>), TypeInfoPropertyName = "CountRequest")]
[JsonSerializable(typeof(GraphQLRequest<SearchVariables>), TypeInfoPropertyName = "SearchRequest")]
[JsonSerializable(typeof(GraphQLRequest<ListVariables>), TypeInfoPropertyName = "ListRequest")]
[JsonSerializable(typeof(GraphQLRequest<AuthorVariables>), TypeInfoPropertyName = "AuthorRequest")]
[JsonSerializable(typeof(GraphQLRequest<ShapeVariables>), TypeInfoPropertyName = "ShapeRequest")]
[JsonSerializable(typeof(GraphQLResponse<ShapeData>), TypeInfoPropertyName = "ShapeResponse")]
[JsonSerializable(typeof(GraphQLResponse<ShapesData>), TypeInfoPropertyName = "ShapesResponse")]
[JsonSerializable(typeof(GraphQLResponse<CloneData>), TypeInfoPropertyName = "CloneResponse")]
[JsonSerializable(typeof(GraphQLResponse<IntMaxData>), TypeInfoPropertyName = "IntMaxResponse")]
[JsonSerializable(typeof(GraphQLResponse<IntsData>), TypeInfoPropertyName = "IntsResponse")]
[JsonSerializable(typeof(GraphQLResponse<SampleData>), TypeInfoPropertyName = "SampleResponse")]
[JsonSerializable(typeof(GraphQLResponse<TextFileData>), TypeInfoPropertyName = "TextFileResponse")]
[JsonSerializable(typeof(GraphQLResponse<PdfData>), TypeInfoPropertyName = "PdfResponse")]
[JsonSerializable(typeof(GraphQLResponse<SearchData>), TypeInfoPropertyName = "SearchResponse")]
[JsonSerializable(typeof(GraphQLResponse<ListData>), TypeInfoPropertyName = "ListResponse")]
[JsonSerializable(typeof(GraphQLResponse<AuthorData>), TypeInfoPropertyName = "AuthorResponse")]
[JsonSerializable(typeof(GraphQLResponse<CreateData>), TypeInfoPropertyName = "CreateResponse")]
[JsonSerializable(typeof(GraphQLResponse<UpdateData>), TypeInfoPropertyName = "UpdateResponse")]
[JsonSerializable(typeof(GraphQLResponse<DeleteData>), TypeInfoPropertyName = "DeleteResponse")]
internal sealed partial class GraphQLJsonContext : JsonSerializerContext;
