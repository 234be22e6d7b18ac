namespace ProtocolBench.Lab.Scenarios;

/// <summary>Which benchmark class measures a scenario (one class, one set of BenchmarkDotNet reports).</summary>
public enum ScenarioGroup
{
    Floor,
    Payloads,
    Files,
    BinaryFiles,
    Authors,
    Shapes,
}
