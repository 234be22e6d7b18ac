namespace ProtocolBench.Benchmarks.Suite;

/// <summary>The Śliwa &amp; Pańczyk domain: three searches, get one, list 100, create (deleted again after each cell).</summary>
public class Authors : ProtocolBenchmark
{
    protected override ScenarioGroup Group => ScenarioGroup.Authors;
}
