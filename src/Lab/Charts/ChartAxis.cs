namespace ProtocolBench.Lab.Charts;

/// <summary>A y axis of <see cref="SvgChart"/>: its grid values and where a value falls, 0 at the bottom and 1 at the top.</summary>
internal sealed record ChartAxis(IReadOnlyList<double> Ticks, Func<double, double> Fraction)
{
    /// <summary>From 0 to a 1-2-5 step above <paramref name="max"/>, about five grid lines.</summary>
    public static ChartAxis Linear(double max)
    {
        var (step, top) = StepAndTop(max);
        var ticks = Enumerable.Range(0, (int)Math.Round(top / step) + 1).Select(i => i * step).ToList();
        return new ChartAxis(ticks, y => y / top);
    }

    /// <summary>From the 1-2-5 value at or below <paramref name="min"/> to the one at or above <paramref name="max"/>; powers of ten only when that is over three decades.</summary>
    public static ChartAxis Logarithmic(double min, double max)
    {
        var values = OneTwoFive(Math.Floor(Math.Log10(min)) - 1, Math.Ceiling(Math.Log10(max)) + 1).ToList();
        var (bottom, top) = (values.Last(v => v <= min * (1 + 1e-9)), values.First(v => v >= max * (1 - 1e-9)));
        if (top <= bottom)
        {
            top = values.First(v => v > bottom);
        }

        var ticks = values.Where(v => v >= bottom && v <= top).ToList();
        if (top / bottom > 1000)
        {
            ticks = ticks.Where(v => Math.Abs(Math.Log10(v) - Math.Round(Math.Log10(v))) < 1e-9).Prepend(bottom).Append(top).Distinct().ToList();
        }

        return new ChartAxis(ticks, y => (Math.Log(y) - Math.Log(bottom)) / (Math.Log(top) - Math.Log(bottom)));
    }

    private static IEnumerable<double> OneTwoFive(double fromExponent, double toExponent)
    {
        for (var e = fromExponent; e <= toExponent; e++)
        {
            foreach (var m in new[] { 1, 2, 5 })
            {
                yield return m * Math.Pow(10, e);
            }
        }
    }

    /// <summary>A 1-2-5 step giving about five grid lines, and the top of the axis.</summary>
    public static (double Step, double Top) StepAndTop(double max)
    {
        if (!(max > 0) || !double.IsFinite(max))
        {
            return (1, 1);
        }

        var raw = max / 5;
        var magnitude = Math.Pow(10, Math.Floor(Math.Log10(raw)));
        var n = raw / magnitude;
        var step = (n <= 1 ? 1 : n <= 2 ? 2 : n <= 5 ? 5 : 10) * magnitude;
        return (step, Math.Ceiling(max * 1.05 / step) * step);
    }

    /// <summary>Ticks for a log scale: 1 and the 1-2-5 values within the range; finer steps near 1 when the range is narrow.</summary>
    public static IEnumerable<double> LogTicks(double min, double max)
    {
        double[] coarse = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100];
        double[] fine = [0.5, 0.67, 0.8, 0.9, 1, 1.1, 1.25, 1.5, 2];
        return (max / min > 6 ? coarse : fine).Where(t => t >= min && t <= max);
    }

    /// <summary>A grid value as the axis writes it.</summary>
    public static string Label(double v) => v switch
    {
        >= 100 => v.ToString("N0", CultureInfo.InvariantCulture),
        >= 10 => v.ToString("0.#", CultureInfo.InvariantCulture),
        _ => v.ToString("0.##", CultureInfo.InvariantCulture),
    };
}
