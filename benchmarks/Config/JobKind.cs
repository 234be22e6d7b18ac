namespace ProtocolBench.Benchmarks.Config;

/// <summary>How long the benchmark command measures each cell: --job default|thorough|short|medium|long, or --smoke.</summary>
public enum JobKind
{
    Default,
    Thorough,
    Short,
    Medium,
    Long,
    Smoke,
}
