namespace ProtocolBench.Benchmarks.Suite;

/// <summary>Scenarios VI and VII as in the paper: REST and GraphQL send the file as base64 in JSON, gRPC as a bytes field.</summary>
public class Files : ProtocolBenchmark
{
    protected override ScenarioGroup Group => ScenarioGroup.Files;
}
