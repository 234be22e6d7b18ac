namespace ProtocolBench.Lab;

/// <summary>Numbers as every report writes them: invariant culture, three significant digits, the unit a reader expects.</summary>
public static class Format
{
    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    /// <summary>Nanoseconds as "812 µs" or "12.3 ms": three significant digits, the unit a reader expects.</summary>
    public static string Time(double nanoseconds) => nanoseconds switch
    {
        double.NaN => "–",
        < 0 => "−" + Time(-nanoseconds),
        < 1_000 => $"{nanoseconds.ToString("0", Invariant)} ns",
        < 1_000_000 => $"{Significant(nanoseconds / 1_000)} µs",
        < 1_000_000_000 => $"{Significant(nanoseconds / 1_000_000)} ms",
        _ => $"{Significant(nanoseconds / 1_000_000_000)} s",
    };

    /// <summary>Nanoseconds in milliseconds, the unit of the paper's table.</summary>
    public static string Milliseconds(double nanoseconds) => Significant(nanoseconds / 1_000_000);

    public static string Significant(double value) => value switch
    {
        >= 100 => value.ToString("0", Invariant),
        >= 10 => value.ToString("0.0", Invariant),
        >= 1 => value.ToString("0.00", Invariant),
        _ => value.ToString("0.000", Invariant),
    };

    public static string Bytes(double bytes) => bytes.ToString("N0", Invariant);

    public static string Size(long bytes) => bytes switch
    {
        < 1024 => $"{bytes} B",
        < 1024 * 1024 => $"{(bytes / 1024.0).ToString("0.0", Invariant)} KiB",
        _ => $"{(bytes / 1024.0 / 1024.0).ToString("0.00", Invariant)} MiB",
    };

    /// <summary>A relative difference as a signed percentage to one decimal, "+1.2 %", "−0.4 %" or "0.0 %" (never "−0.0 %").</summary>
    public static string SignedPercent(double fraction)
    {
        var percent = Math.Round(fraction * 100, 1);
        return percent switch
        {
            > 0 => $"+{percent.ToString("0.0", Invariant)} %",
            < 0 => $"−{(-percent).ToString("0.0", Invariant)} %",
            _ => "0.0 %",
        };
    }

    public static string Ratio(double ratio) => $"{ratio.ToString(ratio >= 10 ? "0" : "0.00", Invariant)}×";

    /// <summary>A ratio's 95 % interval, "0.93–1.12".</summary>
    public static string Interval(double low, double high) =>
        $"{low.ToString(low >= 10 ? "0" : "0.00", Invariant)}–{high.ToString(high >= 10 ? "0" : "0.00", Invariant)}";

    public static string Duration(TimeSpan span) =>
        span.TotalMinutes >= 1 ? $"{(int)span.TotalMinutes} min {span.Seconds:00} s" : $"{span.TotalSeconds.ToString("0.0", Invariant)} s";
}
