using Microsoft.Net.Http.Headers;

namespace ProtocolBench.GraphQL.Api;

/// <summary>What the endpoint answers in: its two media types, chosen by Accept, and the charset it reads.</summary>
internal static class ResponseTypes
{
    public const string GraphQLResponseJson = "application/graphql-response+json; charset=utf-8";
    public const string Json = "application/json; charset=utf-8";

    public static string ContentTypeOf(ResponseType type) => type == ResponseType.GraphQLResponse ? GraphQLResponseJson : Json;

    /// <summary>
    /// The highest-quality type in Accept that the server supports; application/json without Accept or for a wildcard
    /// (the graphql-http audit's SHOULDs); null when nothing acceptable is supported (406).
    /// </summary>
    public static ResponseType? Negotiate(HttpRequest request)
    {
        if (request.Headers.Accept.Count == 0 || !MediaTypeHeaderValue.TryParseList(request.Headers.Accept, out var accepted))
        {
            return request.Headers.Accept.Count == 0 ? ResponseType.Json : null;
        }

        foreach (var type in accepted.Where(t => (t.Quality ?? 1) > 0).OrderByDescending(t => t.Quality ?? 1))
        {
            var mediaType = type.MediaType.Value ?? "";
            if (mediaType.Equals("application/graphql-response+json", StringComparison.OrdinalIgnoreCase))
            {
                return ResponseType.GraphQLResponse;
            }

            if (mediaType.Equals("application/json", StringComparison.OrdinalIgnoreCase)
                || mediaType is "*/*" || mediaType.Equals("application/*", StringComparison.OrdinalIgnoreCase))
            {
                return ResponseType.Json;
            }
        }

        return null;
    }

    /// <summary>No charset means UTF-8 (the spec's MUST); any other charset is refused, as REST refuses it.</summary>
    public static bool IsUtf8(Microsoft.Extensions.Primitives.StringSegment charset) =>
        !charset.HasValue || HeaderUtilities.RemoveQuotes(charset) is var name
        && (name.Equals("utf-8", StringComparison.OrdinalIgnoreCase) || name.Equals("utf8", StringComparison.OrdinalIgnoreCase));
}
