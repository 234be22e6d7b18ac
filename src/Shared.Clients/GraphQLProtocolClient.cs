using System.Net.Http.Headers;
using System.Text.Json;
using System.Text.Json.Serialization.Metadata;

namespace ProtocolBench.Shared.Clients;

/// <summary>
/// GraphQL over HttpClient: POST /graphql, application/json {query, variables}, each operation's document made once
/// from its description (<see cref="GraphQLDocument"/>) and source-generated System.Text.Json both ways. Every response's <c>errors</c> is checked: the first error becomes a
/// <see cref="ProtocolClientException"/> with its <c>extensions.code</c>.
/// </summary>
public sealed class GraphQLProtocolClient(Transport transport, ClientOptions options) : HttpProtocolClient(Protocol.GraphQL, transport, options)
{
    public override bool Offers(Operation operation) => operation.GraphQL is not null;

    public override async Task<TResult> CallAsync<TResult>(OperationCall<TResult> call, CancellationToken cancellationToken = default)
    {
        var document = GraphQLDocument.Of(call.Operation);
        var answer = await PostAsync(document.Body(call), document.Response, cancellationToken);
        return answer.Value is TResult value ? value : throw Empty(document.Field);
    }

    private async Task<IGraphQLResponse> PostAsync(byte[] body, JsonTypeInfo type, CancellationToken cancellationToken)
    {
        // A byte array with Content-Length, not a chunked stream: the body is small and known.
        using var request = Http.Request(
            HttpMethod.Post, "graphql", new ByteArrayContent(body) { Headers = { ContentType = new MediaTypeHeaderValue("application/json") } });
        using var response = await Http.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, cancellationToken);
        var status = (int)response.StatusCode;

        IGraphQLResponse? payload = null;
        if (response.Content.Headers.ContentType?.MediaType is "application/json" or "application/graphql-response+json")
        {
            try
            {
                await using var stream = await response.Content.ReadAsStreamAsync(cancellationToken);
                payload = (IGraphQLResponse?)await JsonSerializer.DeserializeAsync(stream, type, cancellationToken);
            }
            catch (JsonException) when (!response.IsSuccessStatusCode)
            {
            }
        }

        // 200 with errors (the operation ran and failed) or 4xx with errors (the request was refused): both carry a code.
        if (ErrorOf(payload) is { } error)
        {
            throw error;
        }

        if (!response.IsSuccessStatusCode)
        {
            throw new ProtocolClientException($"HTTP_{status}", response.ReasonPhrase ?? $"HTTP {status}", $"HTTP {status}");
        }

        return payload ?? throw new ProtocolClientException("EMPTY_RESPONSE", "The service returned no data.", $"HTTP {status}");
    }

    /// <summary>A response's first error with its <c>extensions.code</c>, or null when it has none.</summary>
    internal static ProtocolClientException? ErrorOf(IGraphQLResponse? response)
    {
        if (response?.Errors is not [var first, ..])
        {
            return null;
        }

        var code = first.Extensions?.Code ?? "GRAPHQL_ERROR";
        return new ProtocolClientException(code, first.Message ?? code, $"GraphQL {code}");
    }

    private static ProtocolClientException Empty(string field) =>
        new("EMPTY_RESPONSE", $"The service returned no value for {field} and no error.", "GraphQL EMPTY_RESPONSE");
}
