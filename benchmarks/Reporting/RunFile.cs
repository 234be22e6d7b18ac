using System.Text.Json;
using System.Text.Json.Serialization;

namespace ProtocolBench.Benchmarks.Reporting;

/// <summary>
/// summary.json: what a run measured, round by round, so that another command (compare) can recompute every ratio and
/// verdict with the same code as the report.
/// </summary>
/// <param name="DomainFloors">Absent in the files of versions before the domain floor.</param>
/// <param name="Transfers">The loopback transfers; absent in the files of versions before them.</param>
public sealed record RunFile(
    BenchmarkRun Run, IReadOnlyList<CellResult> Cells, IReadOnlyList<DomainFloorResult>? DomainFloors, IReadOnlyList<TransferResult>? Transfers = null)
{
    public const string FileName = "summary.json";

    /// <summary>What the reports and compare read; derived, so not written to the file.</summary>
    [JsonIgnore]
    public ResultSet Results => new(Cells, DomainFloors ?? [], Transfers ?? [], Run.Design);

    public void Save(string directory) => File.WriteAllText(Path.Combine(directory, FileName), JsonSerializer.Serialize(this, ResultsJson.Options));

    /// <summary>Reads a run from its results folder (or the summary.json itself).</summary>
    public static RunFile Load(string path)
    {
        var file = Directory.Exists(path) ? Path.Combine(path, FileName) : path;
        if (!File.Exists(file))
        {
            throw new FileNotFoundException($"{file} does not exist: give a results folder of the benchmark command (it holds {FileName}).");
        }

        try
        {
            return JsonSerializer.Deserialize<RunFile>(File.ReadAllText(file), ResultsJson.Options)
                   ?? throw new InvalidDataException($"{file} is empty.");
        }
        catch (JsonException e)
        {
            throw new InvalidDataException($"{file} is not a results file of this version: {e.Message}");
        }
    }
}
