namespace ProtocolBench.Benchmarks.Reporting;

/// <summary>The outcome of comparing two cells' per-iteration times.</summary>
public sealed record Significance(string Test, double? P)
{
    public const double Alpha = 0.05;

    public static readonly Significance NotTestable = new("none (1 measurement per cell)", null);

    public bool IsSignificant => P is < Alpha;

    public override string ToString() => P is { } p ? $"{Format.P(p)}, {Test}" : Test;

    /// <summary>
    /// Two-sided test of a difference between two cells from their per-iteration means (ns/op): Mann–Whitney U when both
    /// have at least 5 iterations (exact without ties, normal approximation with tie correction otherwise); Welch's
    /// t-test for 2–4 iterations (a short run), where a rank test cannot reach p &lt; 0.05.
    /// </summary>
    public static Significance Compare(IReadOnlyList<double> a, IReadOnlyList<double> b)
    {
        if (a.Count >= 5 && b.Count >= 5)
        {
            return new("Mann–Whitney U", MannWhitneyP(a, b));
        }

        return a.Count >= 2 && b.Count >= 2 ? new("Welch's t-test", WelchP(a, b)) : NotTestable;
    }

    public static double MannWhitneyP(IReadOnlyList<double> a, IReadOnlyList<double> b)
    {
        int n1 = a.Count, n2 = b.Count, n = n1 + n2;
        var all = a.Select(v => (Value: v, First: true)).Concat(b.Select(v => (Value: v, First: false))).OrderBy(x => x.Value).ToArray();
        double rankSumA = 0, tieTerm = 0;
        for (var i = 0; i < n;)
        {
            var j = i;
            while (j + 1 < n && all[j + 1].Value == all[i].Value)
            {
                j++;
            }

            var rank = (i + j + 2) / 2.0;
            for (var k = i; k <= j; k++)
            {
                if (all[k].First)
                {
                    rankSumA += rank;
                }
            }

            double t = j - i + 1;
            tieTerm += t * t * t - t;
            i = j + 1;
        }

        var u = rankSumA - n1 * (n1 + 1) / 2.0;
        var uMin = Math.Min(u, (double)n1 * n2 - u);
        if (tieTerm == 0 && n <= 40)
        {
            return Math.Min(1, 2 * ExactLowerTail(n1, n2, (int)uMin));
        }

        var mean = n1 * n2 / 2.0;
        var sd = Math.Sqrt(n1 * n2 / 12.0 * (n + 1 - tieTerm / (n * (n - 1.0))));
        if (sd == 0)
        {
            return 1;
        }

        var z = (Math.Abs(u - mean) - 0.5) / sd;
        return Math.Min(1, 2 * (1 - NormalCdf(Math.Max(z, 0))));
    }

    public static double WelchP(IReadOnlyList<double> a, IReadOnlyList<double> b)
    {
        double m1 = a.Average(), m2 = b.Average();
        double v1 = a.Sum(x => (x - m1) * (x - m1)) / (a.Count - 1), v2 = b.Sum(x => (x - m2) * (x - m2)) / (b.Count - 1);
        double s1 = v1 / a.Count, s2 = v2 / b.Count;
        if (s1 + s2 == 0)
        {
            return m1 == m2 ? 1 : 0;
        }

        var t = (m1 - m2) / Math.Sqrt(s1 + s2);
        var df = (s1 + s2) * (s1 + s2) / (s1 * s1 / (a.Count - 1) + s2 * s2 / (b.Count - 1));
        return RegularizedIncompleteBeta(df / (df + t * t), df / 2, 0.5);
    }

    /// <summary>P(U ≤ u) under the null hypothesis, counting rank arrangements (no ties).</summary>
    private static double ExactLowerTail(int n1, int n2, int u)
    {
        // counts[i, j][k]: arrangements of i and j values with U = k; built up one value at a time.
        var max = n1 * n2;
        var previous = new double[n2 + 1][];
        for (var j = 0; j <= n2; j++)
        {
            previous[j] = new double[max + 1];
            previous[j][0] = 1;
        }

        for (var i = 1; i <= n1; i++)
        {
            var current = new double[n2 + 1][];
            current[0] = new double[max + 1];
            current[0][0] = 1;
            for (var j = 1; j <= n2; j++)
            {
                current[j] = new double[max + 1];
                for (var k = 0; k <= i * j; k++)
                {
                    current[j][k] = (k >= j ? previous[j][k - j] : 0) + current[j - 1][k];
                }
            }

            previous = current;
        }

        var counts = previous[n2];
        var total = counts.Sum();
        return counts.Take(u + 1).Sum() / total;
    }

    private static double NormalCdf(double z) => 0.5 * Erfc(-z / Math.Sqrt(2));

    // Numerical Recipes erfc (Chebyshev fit, relative error < 1.2e-7).
    private static double Erfc(double x)
    {
        var z = Math.Abs(x);
        var t = 1 / (1 + 0.5 * z);
        var r = t * Math.Exp(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 +
                t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))));
        return x >= 0 ? r : 2 - r;
    }

    private static double RegularizedIncompleteBeta(double x, double a, double b)
    {
        if (x <= 0)
        {
            return 0;
        }

        if (x >= 1)
        {
            return 1;
        }

        var front = Math.Exp(LogGamma(a + b) - LogGamma(a) - LogGamma(b) + a * Math.Log(x) + b * Math.Log(1 - x));
        return x < (a + 1) / (a + b + 2)
            ? front * BetaContinuedFraction(x, a, b) / a
            : 1 - front * BetaContinuedFraction(1 - x, b, a) / b;
    }

    // Lentz's method, as in Numerical Recipes' betacf.
    private static double BetaContinuedFraction(double x, double a, double b)
    {
        const double Tiny = 1e-300;
        double c = 1, d = 1 - (a + b) * x / (a + 1);
        d = 1 / (Math.Abs(d) < Tiny ? Tiny : d);
        var h = d;
        for (var m = 1; m <= 300; m++)
        {
            var m2 = 2 * m;
            var aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
            d = 1 + aa * d;
            d = 1 / (Math.Abs(d) < Tiny ? Tiny : d);
            c = 1 + aa / c;
            c = Math.Abs(c) < Tiny ? Tiny : c;
            h *= d * c;
            aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
            d = 1 + aa * d;
            d = 1 / (Math.Abs(d) < Tiny ? Tiny : d);
            c = 1 + aa / c;
            c = Math.Abs(c) < Tiny ? Tiny : c;
            var delta = d * c;
            h *= delta;
            if (Math.Abs(delta - 1) < 1e-12)
            {
                break;
            }
        }

        return h;
    }

    private static double LogGamma(double x)
    {
        double[] coefficients = [76.18009172947146, -86.50532032941677, 24.01409824083091, -1.231739572450155, 0.1208650973866179e-2, -0.5395239384953e-5];
        double y = x, tmp = x + 5.5;
        tmp -= (x + 0.5) * Math.Log(tmp);
        var series = 1.000000000190015;
        foreach (var c in coefficients)
        {
            series += c / ++y;
        }

        return -tmp + Math.Log(2.5066282746310005 * series / x);
    }
}
