namespace ProtocolBench.Benchmarks.Suite;

/// <summary>The files in each protocol's native binary form, beyond the paper: REST's raw endpoints and gRPC's StreamPdf.</summary>
public class BinaryFiles : ProtocolBenchmark
{
    protected override ScenarioGroup Group => ScenarioGroup.BinaryFiles;
}
