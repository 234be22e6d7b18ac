using System.Text.Json;
using System.Text.Json.Serialization;

namespace ProtocolBench.Lab.Runs;

/// <summary>
/// How both commands write their results (summary.json, cells.jsonl): camelCase names, enums by name, NaN and infinity
/// allowed. Read case-insensitively, so that the files of versions that wrote PascalCase names still load.
/// </summary>
public static class ResultsJson
{
    public static readonly JsonSerializerOptions Options = new(JsonSerializerDefaults.Web)
    {
        WriteIndented = true,
        NumberHandling = JsonNumberHandling.AllowNamedFloatingPointLiterals,
        Converters = { new JsonStringEnumConverter() },
    };
}
