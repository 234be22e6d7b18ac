using System.Buffers;
using System.Globalization;
using System.Text.Unicode;
using Microsoft.Extensions.Primitives;

namespace ProtocolBench.Shared.Hosting;

/// <summary>
/// Two rules for the text of a query string, the same as for the text of a JSON body or a protobuf message.
/// Percent-encoded bytes must be UTF-8: ASP.NET Core's decoder keeps a sequence that is not (<c>%FF</c>, an overlong or a
/// surrogate's encoding) as its literal text, which would reach the domain as text the client never sent; such a request is
/// refused as INVALID_ARGUMENT, naming the parameter. A name given twice takes its last value, as System.Text.Json and
/// protobuf do (MVC's binding would take the first, and GraphQL's GET would read both joined by a comma).
/// </summary>
public static class QueryStrings
{
    /// <summary>The error for a parameter whose percent-encoded bytes are not UTF-8, or null when every one is.</summary>
    public static DomainException? NotUtf8(HttpRequest request)
    {
        var query = request.QueryString.Value;
        if (string.IsNullOrEmpty(query) || !query.Contains('%'))
        {
            return null;
        }

        // A run of escapes holds whole characters: one that ends inside a character is invalid read alone or with what follows.
        var bytes = ArrayPool<byte>.Shared.Rent(query.Length / 3 + 1);
        try
        {
            for (var i = 0; i < query.Length;)
            {
                if (!TryEscape(query, i, out _))
                {
                    i++;
                    continue;
                }

                var start = i;
                var count = 0;
                while (TryEscape(query, i, out var value))
                {
                    bytes[count++] = value;
                    i += 3;
                }

                if (!Utf8.IsValid(bytes.AsSpan(0, count)))
                {
                    var name = NameAt(query, start);
                    return DomainException.Invalid(name, $"{name} is not valid UTF-8: its percent-encoded bytes at character {start} of the query string are not a character.");
                }
            }

            return null;
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(bytes);
        }
    }

    /// <summary>Keeps the last value of each parameter given more than once.</summary>
    public static void TakeLastValues(HttpRequest request)
    {
        if (request.QueryString.Value?.Contains('&') != true)
        {
            return;
        }

        var query = request.Query;
        foreach (var (_, values) in query)
        {
            if (values.Count > 1)
            {
                request.Query = new QueryCollection(query.ToDictionary(p => p.Key, p => new StringValues(p.Value[^1])));
                return;
            }
        }
    }

    private static bool TryEscape(string query, int i, out byte value)
    {
        value = 0;
        return i + 2 < query.Length && query[i] == '%'
            && byte.TryParse(query.AsSpan(i + 1, 2), NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture, out value);
    }

    /// <summary>The decoded name of the parameter that holds character <paramref name="at"/>.</summary>
    private static string NameAt(string query, int at)
    {
        var start = query.LastIndexOfAny(['?', '&'], at) + 1;
        var end = query.IndexOf('=', start);
        var name = Uri.UnescapeDataString(query[start..(end < 0 || end > at ? at : end)]);
        return name.Length == 0 ? "the query string" : name;
    }
}
