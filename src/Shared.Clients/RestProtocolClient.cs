using System.Net.Http.Json;
using System.Text.Json;
using System.Text.Json.Serialization;

namespace ProtocolBench.Shared.Clients;

/// <summary>REST over HttpClient with source-generated System.Text.Json: the URLs the README lists.</summary>
public sealed class RestProtocolClient : IProtocolClient
{
    private readonly HttpClient _http;

    public RestProtocolClient(Transport transport, ClientOptions options)
    {
        Transport = transport;
        _http = new HttpClient(ClientHandlers.Create(options, Wire), disposeHandler: true)
        {
            BaseAddress = options.Addresses.BaseUri(Protocol.Rest, transport),
            Timeout = options.CallTimeout,
            DefaultRequestVersion = transport == Transport.Https && options.HttpsUsesHttp2ForRestAndGraphQL
                ? HttpVersion.Version20
                : HttpVersion.Version11,
            DefaultVersionPolicy = HttpVersionPolicy.RequestVersionExact,
        };
    }

    public Protocol Protocol => Protocol.Rest;

    public Transport Transport { get; }

    public WireCounter Wire { get; } = new();

    public async Task<string> CloneAsync(string? text, int? count, CancellationToken cancellationToken = default) =>
        (await GetAsync($"api/payloads/clone{Query(("text", text), ("count", count?.ToString()))}", RestJsonContext.Default.CloneResult, cancellationToken)).Text;

    public async Task<int> GetIntMaxAsync(CancellationToken cancellationToken = default) =>
        (await GetAsync("api/payloads/int-max", RestJsonContext.Default.IntMaxResult, cancellationToken)).Value;

    public async Task<int[]> GetIntsAsync(int? count, CancellationToken cancellationToken = default) =>
        (await GetAsync($"api/payloads/ints{Query(("count", count?.ToString()))}", RestJsonContext.Default.IntsResult, cancellationToken)).Values;

    public Task<AuthorDto> GetSampleAsync(CancellationToken cancellationToken = default) =>
        GetAsync("api/payloads/sample", RestJsonContext.Default.AuthorDto, cancellationToken);

    public async Task<byte[]> GetTextFileAsync(CancellationToken cancellationToken = default) =>
        (await GetAsync("api/payloads/text-file", RestJsonContext.Default.FilePayload, cancellationToken)).Data;

    public async Task<byte[]> GetPdfAsync(CancellationToken cancellationToken = default) =>
        (await GetAsync("api/payloads/pdf", RestJsonContext.Default.FilePayload, cancellationToken)).Data;

    public Task<byte[]> GetPdfBinaryAsync(CancellationToken cancellationToken = default) =>
        GetBytesAsync("api/payloads/pdf/raw", cancellationToken);

    public Task<byte[]> GetTextFileBinaryAsync(CancellationToken cancellationToken = default) =>
        GetBytesAsync("api/payloads/text-file/raw", cancellationToken);

    public async Task<IReadOnlyList<AuthorDto>> SearchAuthorsAsync(string? phrase, int? limit = null, CancellationToken cancellationToken = default) =>
        await GetAsync($"api/authors/search{Query(("phrase", phrase), ("limit", limit?.ToString()))}", RestJsonContext.Default.ListAuthorDto, cancellationToken);

    public async Task<IReadOnlyList<AuthorDto>> ListAuthorsAsync(int? skip = null, int? take = null, CancellationToken cancellationToken = default) =>
        await GetAsync($"api/authors{Query(("skip", skip?.ToString()), ("take", take?.ToString()))}", RestJsonContext.Default.ListAuthorDto, cancellationToken);

    public Task<AuthorDto> GetAuthorAsync(int id, CancellationToken cancellationToken = default) =>
        GetAsync($"api/authors/{id}", RestJsonContext.Default.AuthorDto, cancellationToken);

    public async Task<AuthorDto> CreateAuthorAsync(string? name, string? country, CancellationToken cancellationToken = default)
    {
        using var response = await _http.PostAsync("api/authors", Json(new AuthorInput(name, country)), cancellationToken);
        return await ReadAsync(response, RestJsonContext.Default.AuthorDto, cancellationToken);
    }

    public async Task<AuthorDto> UpdateAuthorAsync(int id, string? name, string? country, CancellationToken cancellationToken = default)
    {
        using var response = await _http.PutAsync($"api/authors/{id}", Json(new AuthorInput(name, country)), cancellationToken);
        return await ReadAsync(response, RestJsonContext.Default.AuthorDto, cancellationToken);
    }

    public async Task DeleteAuthorAsync(int id, CancellationToken cancellationToken = default)
    {
        using var response = await _http.DeleteAsync($"api/authors/{id}", cancellationToken);
        await EnsureSuccessAsync(response, cancellationToken);
    }

    public Task<ShapeDto> GetShapeAsync(string? kind, int id, CancellationToken cancellationToken = default) =>
        GetAsync($"api/shapes/{Uri.EscapeDataString(kind ?? "")}/{id}", RestJsonContext.Default.ShapeDto, cancellationToken);

    public async Task<IReadOnlyList<ShapeDto>> ListShapesAsync(string? kind, int? count = null, CancellationToken cancellationToken = default) =>
        await GetAsync($"api/shapes/{Uri.EscapeDataString(kind ?? "")}{Query(("count", count?.ToString()))}", RestJsonContext.Default.ListShapeDto, cancellationToken);

    public ValueTask DisposeAsync()
    {
        _http.Dispose();
        return ValueTask.CompletedTask;
    }

    // A sized body (Content-Length), as the gRPC and GraphQL clients send; PostAsJsonAsync would stream it chunked.
    private static ByteArrayContent Json(AuthorInput input)
    {
        var content = new ByteArrayContent(JsonSerializer.SerializeToUtf8Bytes(input, RestJsonContext.Default.AuthorInput));
        content.Headers.ContentType = new("application/json") { CharSet = "utf-8" };
        return content;
    }

    private static string Query(params (string Name, string? Value)[] parameters)
    {
        var parts = parameters.Where(p => p.Value is not null).Select(p => $"{p.Name}={Uri.EscapeDataString(p.Value!)}").ToArray();
        return parts.Length == 0 ? "" : "?" + string.Join('&', parts);
    }

    private async Task<T> GetAsync<T>(string path, System.Text.Json.Serialization.Metadata.JsonTypeInfo<T> type, CancellationToken cancellationToken)
    {
        using var response = await _http.GetAsync(path, HttpCompletionOption.ResponseHeadersRead, cancellationToken);
        return await ReadAsync(response, type, cancellationToken);
    }

    /// <summary>
    /// The body read straight into an array of the length it announced, as the gRPC client reads StreamPdf:
    /// ReadAsByteArrayAsync would buffer it first and then copy it (3.4 MB more to copy for the PDF).
    /// </summary>
    private async Task<byte[]> GetBytesAsync(string path, CancellationToken cancellationToken)
    {
        using var response = await _http.GetAsync(path, HttpCompletionOption.ResponseHeadersRead, cancellationToken);
        await EnsureSuccessAsync(response, cancellationToken);
        if (response.Content.Headers.ContentLength is not { } length || response.Content.Headers.ContentEncoding.Count > 0)
        {
            return await response.Content.ReadAsByteArrayAsync(cancellationToken);
        }

        if (length > Array.MaxLength)
        {
            throw new ProtocolClientException("INVALID_RESPONSE", $"The service announced an impossible length of {length} bytes.", $"HTTP {(int)response.StatusCode}");
        }

        var body = GC.AllocateUninitializedArray<byte>((int)length);
        await using var stream = await response.Content.ReadAsStreamAsync(cancellationToken);
        try
        {
            await stream.ReadExactlyAsync(body, cancellationToken);
        }
        catch (EndOfStreamException e)
        {
            throw new ProtocolClientException("INVALID_RESPONSE", $"The body ended before the {length} bytes it announced.", $"HTTP {(int)response.StatusCode}", e);
        }

        return body;
    }

    private static async Task<T> ReadAsync<T>(HttpResponseMessage response, System.Text.Json.Serialization.Metadata.JsonTypeInfo<T> type, CancellationToken cancellationToken)
    {
        await EnsureSuccessAsync(response, cancellationToken);
        return await response.Content.ReadFromJsonAsync(type, cancellationToken)
               ?? throw new ProtocolClientException("EMPTY_RESPONSE", "The service returned an empty body.", $"HTTP {(int)response.StatusCode}");
    }

    private static async Task EnsureSuccessAsync(HttpResponseMessage response, CancellationToken cancellationToken)
    {
        if (response.IsSuccessStatusCode)
        {
            return;
        }

        var status = (int)response.StatusCode;
        RestProblem? problem = null;
        if (response.Content.Headers.ContentType?.MediaType is "application/problem+json" or "application/json")
        {
            try
            {
                problem = await response.Content.ReadFromJsonAsync(RestJsonContext.Default.RestProblem, cancellationToken);
            }
            catch (JsonException)
            {
            }
        }

        var code = problem?.Code ?? $"HTTP_{status}";
        var message = problem?.Detail ?? problem?.Title ?? response.ReasonPhrase ?? $"HTTP {status}";
        throw new ProtocolClientException(code, message, $"HTTP {status}");
    }
}

public sealed record RestProblem(string? Title, int? Status, string? Detail, string? Code, string? Field);

[JsonSourceGenerationOptions(JsonSerializerDefaults.Web)]
[JsonSerializable(typeof(CloneResult))]
[JsonSerializable(typeof(IntMaxResult))]
[JsonSerializable(typeof(IntsResult))]
[JsonSerializable(typeof(FilePayload))]
[JsonSerializable(typeof(AuthorDto))]
[JsonSerializable(typeof(List<AuthorDto>))]
[JsonSerializable(typeof(AuthorInput))]
[JsonSerializable(typeof(ShapeDto))]
[JsonSerializable(typeof(List<ShapeDto>))]
[JsonSerializable(typeof(RestProblem))]
internal sealed partial class RestJsonContext : JsonSerializerContext;
