using System.Globalization;

namespace ProtocolBench.Benchmarks.Reporting.Summary;

/// <summary>What the sections write alike: numbers in the invariant culture, a cost per operation with a dash where it was not measured.</summary>
internal static class SummaryText
{
    public static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    public static string Micros(double micros) => double.IsFinite(micros) ? Format.Time(micros * 1e3) : "–";

    public static string Size(double bytes) => double.IsFinite(bytes) ? Format.Size((long)bytes) : "–";
}
