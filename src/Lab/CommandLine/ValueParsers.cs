using System.CommandLine.Parsing;

namespace ProtocolBench.Lab.CommandLine;

/// <summary>Every option value both commands parse, in one place: numbers, lists, protocols, transports and the conditions.</summary>
public static class ValueParsers
{
    public static int PositiveInt(ArgumentResult result) =>
        Parse(result, v => int.TryParse(v, NumberStyles.Integer, CultureInfo.InvariantCulture, out var n) && n > 0 ? n : throw new FormatException("must be a positive whole number"));

    public static int NonNegativeInt(ArgumentResult result) =>
        Parse(result, v => int.TryParse(v, NumberStyles.Integer, CultureInfo.InvariantCulture, out var n) && n >= 0 ? n : throw new FormatException("must be 0 or more"));

    public static int WholeNumber(ArgumentResult result) =>
        Parse(result, v => int.TryParse(v, NumberStyles.Integer, CultureInfo.InvariantCulture, out var n) ? n : throw new FormatException("must be a whole number"));

    public static double PositiveNumber(ArgumentResult result) =>
        Parse(result, v => double.TryParse(v, NumberStyles.Float, CultureInfo.InvariantCulture, out var n) && n > 0 && double.IsFinite(n) ? n : throw new FormatException("must be a positive number"));

    /// <summary>A comma-separated list, each item parsed, duplicates dropped.</summary>
    public static IReadOnlyList<T> List<T>(ArgumentResult result, Func<string, T> parse) =>
        Parse(result, v =>
        {
            var items = v.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).Select(parse).Distinct().ToList();
            return items.Count > 0 ? items : throw new FormatException("is an empty list");
        });

    public static Protocol ParseProtocol(string value) => value.ToLowerInvariant() switch
    {
        "rest" => Protocol.Rest,
        "grpc" => Protocol.Grpc,
        "graphql" => Protocol.GraphQL,
        "signalr" => Protocol.SignalR,
        "signalr-messagepack" or "signalr-msgpack" => Protocol.SignalRMessagePack,
        _ => throw new FormatException($"'{value}' is not a protocol: rest, grpc, graphql, signalr or signalr-messagepack"),
    };

    public static Transport ParseTransport(string value) => value.ToLowerInvariant() switch
    {
        "http" => Transport.Http,
        "https" => Transport.Https,
        _ => throw new FormatException($"'{value}' is not a transport: http or https"),
    };

    public static DatabaseProvider ParseDatabase(string value) => value.ToLowerInvariant() switch
    {
        "sqlite" => DatabaseProvider.Sqlite,
        "postgres" or "postgresql" or "pg" => DatabaseProvider.PostgreSQL,
        _ => throw new FormatException($"'{value}' is not a database: sqlite or postgres"),
    };

    /// <summary>Runs a parser on the option's one token; a <see cref="FormatException"/> becomes the option's error.</summary>
    public static T Parse<T>(ArgumentResult result, Func<string, T> parse)
    {
        var token = result.Tokens.Count > 0 ? result.Tokens[0].Value : "";
        try
        {
            return parse(token);
        }
        catch (FormatException e)
        {
            var name = (result.Parent as OptionResult)?.Option.Name ?? result.Argument.Name;
            result.AddError(e.Message.StartsWith(name, StringComparison.Ordinal) ? e.Message : $"{name} {token}: {e.Message}.");
            return default!;
        }
    }

    public static Compression ParseCompression(string value) => value.ToLowerInvariant() switch
    {
        "none" => Compression.None,
        "gzip" => Compression.Gzip,
        "br" or "brotli" => Compression.Brotli,
        _ => throw new FormatException($"'{value}' is not a compression: none, gzip or br"),
    };

    public static ConnectionPolicy ParseConnections(string value) => value.ToLowerInvariant() switch
    {
        "reuse" => ConnectionPolicy.Reuse,
        "new" => ConnectionPolicy.New,
        _ => throw new FormatException($"'{value}' is not a connection policy: reuse or new"),
    };
}
