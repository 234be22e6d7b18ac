using ProtocolBench.Lab;

namespace ProtocolBench.Benchmarks.Reporting.Summary;

/// <summary>A cost per operation as the tables write it: a dash where it was not measured.</summary>
internal static class CostText
{
    public static string Micros(double micros) => double.IsFinite(micros) ? Format.Time(micros * 1e3) : "–";

    public static string Size(double bytes) => double.IsFinite(bytes) ? Format.Size((long)bytes) : "–";
}
