namespace ProtocolBench.Benchmarks.Suite;

/// <summary>Bolanowski et al. scenarios I–V with the paper's arguments: no database behind them.</summary>
public class Payloads : ProtocolBenchmark
{
    protected override ScenarioGroup Group => ScenarioGroup.Payloads;
}
