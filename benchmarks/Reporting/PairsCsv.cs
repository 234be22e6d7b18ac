namespace ProtocolBench.Benchmarks.Reporting;

/// <summary>pairs.csv: every pair of every row, its interval and the confidence it was read at, state and claim, and whether a noisier cell had it judged on its own variance.</summary>
public static class PairsCsv
{
    public const string FileName = "pairs.csv";

    public static string Of(ResultSet results) => Csv.Of(
        ["operation", "transport", "faster", "slower", "ratio", "low", "high", "confidence", "rounds", "state", "claim", "own_variance"],
        from row in results.Rankings()
        from pair in row.Ranking.Pairs
        select new object?[]
        {
            row.Scenario.Name, Display.Of(row.Transport), pair.Faster, pair.Slower, Csv.Number(pair.Margin.Ratio), Csv.Number(pair.Margin.Low),
            Csv.Number(pair.Margin.High), Csv.Number(pair.Margin.ConfidenceLevel), pair.Margin.Values,
            pair.State.ToString().ToLowerInvariant(), pair.Reading, pair.Margin.Method == RatioInterval.PairedMethod ? "yes" : "no",
        });
}
