namespace ProtocolBench.Benchmarks.Config;

/// <summary>How long the benchmark command measures each cell: --job default|short|medium|long, or --smoke.</summary>
public enum JobKind
{
    Default,
    Short,
    Medium,
    Long,
    Smoke,
}
