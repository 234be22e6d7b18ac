namespace ProtocolBench.Benchmarks.Cli;

/// <summary>
/// One round as the report reads it: each case's result, BenchmarkDotNet's report files (relative to the results
/// folder) and what it found wrong with the round. Taken from the round's summaries as the round ends, so the summaries
/// can go: each holds its round's emitted assembly, and keeping them made every forced collection of the later rounds
/// slower (docs/methodology.md, "Where a round's time goes").
/// </summary>
public sealed record MeasuredRound(int Round, IReadOnlyList<(BenchmarkCase Case, RoundResult Result)> Results, IReadOnlyList<string> ReportFiles, IReadOnlyList<string> Problems)
{
    /// <param name="costs">Each cell's cost in the round by its case's id (<see cref="Config.ServerCostDiagnoser.TakeRound"/>).</param>
    public static MeasuredRound From(int round, IEnumerable<Summary> summaries, string results, IReadOnlyDictionary<string, CostPerOp>? costs = null)
    {
        var cases = new List<(BenchmarkCase, RoundResult)>();
        var files = new List<string>();
        var problems = new List<string>();
        foreach (var summary in summaries)
        {
            cases.AddRange(summary.Reports.Select(report => (report.BenchmarkCase, RoundResult.From(round, report, costs?.GetValueOrDefault(Cell.Id(report.BenchmarkCase))))));
            // One class per summary: reports are named after the class; with --join after the summary's title.
            var types = summary.BenchmarksCases.Select(c => c.Descriptor.Type).Distinct().ToList();
            var name = types.Count == 1 ? types[0].FullName : summary.Title;
            foreach (var file in ReportCommand.ReportSuffixes.Select(suffix => Path.Combine(summary.ResultsDirectoryPath, name + suffix)))
            {
                if (File.Exists(file))
                {
                    files.Add(Path.GetRelativePath(results, file).Replace('\\', '/'));
                }
                else
                {
                    problems.Add($"missing report {file}");
                }
            }

            if (summary.HasCriticalValidationErrors)
            {
                problems.Add($"{summary.Title}: {string.Join("; ", summary.ValidationErrors.Select(v => v.Message))}");
            }
        }

        return new MeasuredRound(round, cases, files, problems);
    }
}
