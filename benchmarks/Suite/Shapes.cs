namespace ProtocolBench.Benchmarks.Suite;

/// <summary>Erftbjerg et al.'s payload shapes: one object and 100, growing in size and in depth; no database behind them.</summary>
public class Shapes : ProtocolBenchmark
{
    protected override ScenarioGroup Group => ScenarioGroup.Shapes;
}
