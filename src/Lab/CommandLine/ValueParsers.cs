using System.CommandLine.Parsing;

namespace ProtocolBench.Lab.CommandLine;

/// <summary>Every option value both commands parse, in one place: numbers, lists, protocols, transports and the conditions.</summary>
public static class ValueParsers
{
    public static readonly Func<string, Protocol> ParseProtocol = Choice("a protocol", (["rest"], Protocol.Rest), (["grpc"], Protocol.Grpc),
        (["graphql"], Protocol.GraphQL), (["signalr"], Protocol.SignalR), (["signalr-messagepack", "signalr-msgpack"], Protocol.SignalRMessagePack));

    public static readonly Func<string, Transport> ParseTransport = Choice("a transport", (["http"], Transport.Http), (["https"], Transport.Https));

    public static readonly Func<string, DatabaseProvider> ParseDatabase = Choice("a database",
        (["sqlite"], DatabaseProvider.Sqlite), (["postgres", "postgresql", "pg"], DatabaseProvider.PostgreSQL));

    public static readonly Func<string, Compression> ParseCompression = Choice("a compression",
        (["none"], Compression.None), (["gzip"], Compression.Gzip), (["br", "brotli"], Compression.Brotli));

    public static readonly Func<string, ConnectionPolicy> ParseConnections = Choice("a connection policy", (["reuse"], ConnectionPolicy.Reuse), (["new"], ConnectionPolicy.New));

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

    /// <summary>
    /// A parser of one of a few names, case-insensitive; an unknown one is refused with the first name of each choice:
    /// "'zip' is not a compression: none, gzip or br".
    /// </summary>
    private static Func<string, T> Choice<T>(string what, params (string[] Names, T Value)[] choices)
    {
        var byName = choices.SelectMany(c => c.Names.Select(name => (name, c.Value))).ToDictionary(c => c.name, c => c.Value, StringComparer.OrdinalIgnoreCase);
        var listed = choices.Select(c => c.Names[0]).ToList();
        var expected = $"{string.Join(", ", listed[..^1])} or {listed[^1]}";
        return value => byName.TryGetValue(value, out var parsed) ? parsed : throw new FormatException($"'{value}' is not {what}: {expected}");
    }
}
