using System.Net.Http.Json;
using System.Text.Json;

namespace ProtocolBench.Shared.Clients;

/// <summary>REST over HttpClient with source-generated System.Text.Json: each operation at the route its description gives (<see cref="RestRoute"/>).</summary>
public sealed class RestProtocolClient(Transport transport, ClientOptions options) : HttpProtocolClient(Protocol.Rest, transport, options)
{
    public override bool Offers(Operation operation) => operation.Rest is not null;

    public override async Task<TResult> CallAsync<TResult>(OperationCall<TResult> call, CancellationToken cancellationToken = default)
    {
        var route = RestRoute.Of(call.Operation);
        using var request = Http.Request(route.Method, route.Path(call), route.Body(call));
        using var response = await Http.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, cancellationToken);
        await EnsureSuccessAsync(response, cancellationToken);
        return await ReadAsync<TResult>(response, cancellationToken);
    }

    /// <summary>
    /// The answer by its type: bytes are the body as it is (/raw); true is a success without a body (a delete's 204); a
    /// scalar or an array of scalars is an object of one property (<c>{"text": …}</c>); anything else is the body's JSON.
    /// </summary>
    private static async Task<TResult> ReadAsync<TResult>(HttpResponseMessage response, CancellationToken cancellationToken)
    {
        if (typeof(TResult) == typeof(byte[]))
        {
            return (TResult)(object)await ReadBytesAsync(response, cancellationToken);
        }

        if (typeof(TResult) == typeof(bool))
        {
            return (TResult)(object)true;
        }

        if (RestAnswer<TResult>.IsWrapped)
        {
            var wrapped = await response.Content.ReadFromJsonAsync(RestAnswer<TResult>.Wrapped, cancellationToken);
            return wrapped is { IsNull: false } ? wrapped.Value! : throw Empty(response);
        }

        return await response.Content.ReadFromJsonAsync(RestAnswer<TResult>.Json, cancellationToken) ?? throw Empty(response);
    }

    private static ProtocolClientException Empty(HttpResponseMessage response) =>
        new("EMPTY_RESPONSE", "The service returned an empty body.", $"HTTP {(int)response.StatusCode}");

    /// <summary>
    /// The body read straight into an array of the length it announced, as the gRPC client reads StreamPdf:
    /// ReadAsByteArrayAsync would buffer it first and then copy it (3.4 MB more to copy for the PDF).
    /// </summary>
    private static async Task<byte[]> ReadBytesAsync(HttpResponseMessage response, CancellationToken cancellationToken)
    {
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
