namespace ProtocolBench.Benchmarks.Reporting.Summary;

/// <summary>The machine, the services and how this run measured.</summary>
internal sealed class EnvironmentSection(ResultSet results, BenchmarkRun run)
{
    private Table Table() => run.Setup(
        ("BenchmarkDotNet", $"{run.BenchmarkDotNet}, in-process toolchain (client), services as separate processes"),
        ("Job", run.Job),
        ("Rounds", $"{results.Rounds} measured; {results.Design.Describe()}; cells in a shuffled order each round (seed {run.Seed}: --seed {run.Seed} repeats it)"),
        ("Service restarts", run.Restarts),
        ("Cells the client cannot make", run.NotMade.Count == 0 ? "none" : $"not measured by any client: {string.Join("; ", run.NotMade)}"));

    public SummarySection Section() => new("Environment", "", Table(), null);
}
