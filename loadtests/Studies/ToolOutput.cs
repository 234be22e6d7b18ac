using System.Text.RegularExpressions;

namespace ProtocolBench.LoadTests.Studies;

/// <summary>What wrk, h2load and hey print, read for driver-check: their rates and their latencies.</summary>
internal static class ToolOutput
{
    /// <summary>hey's summary: its latency distribution (10 % … 99 %) and average, in seconds, and its status codes.</summary>
    public static (double, double, double, string) ParseHey(string output)
    {
        double Seconds(string pattern) => Regex.Match(output, pattern) is { Success: true } m ? double.Parse(m.Groups[1].Value, CultureInfo.InvariantCulture) * 1000 : double.NaN;
        var codes = string.Join(", ", Regex.Matches(output, @"\[(\d+)\]\s+(\d+) responses").Select(m => $"{m.Groups[2].Value} × {m.Groups[1].Value}"));
        var errors = Regex.Match(output, @"Error distribution:[\s\S]*");
        var summary = $"hey: {(codes.Length > 0 ? codes : "no responses")}{(errors.Success ? "; " + errors.Value.Trim().Replace('\n', ' ') : "")}";
        return (Seconds(@"50%+ in ([\d.]+) secs"), Seconds(@"99%+ in ([\d.]+) secs"), Seconds(@"Average:\s+([\d.]+) secs"), summary);
    }

    /// <summary>h2load's "time for request" line: min, max, mean, sd (no percentiles), in us, ms or s.</summary>
    public static (double, double, double, string) ParseH2LoadLatency(string output)
    {
        var line = Regex.Match(output, @"time for request:\s+([\d.]+)(us|ms|s)\s+([\d.]+)(us|ms|s)\s+([\d.]+)(us|ms|s)");
        var requests = Regex.Match(output, @"requests: [^\n]*");
        var codes = Regex.Match(output, @"status codes: [^\n]*");
        var summary = $"h2load {(requests.Success ? requests.Value : "?")}; {(codes.Success ? codes.Value : "")}";
        double Ms(int group) => double.Parse(line.Groups[group].Value, CultureInfo.InvariantCulture) * line.Groups[group + 1].Value switch
        {
            "us" => 0.001,
            "s" => 1000,
            _ => 1,
        };
        return line.Success ? (double.NaN, double.NaN, Ms(5), summary) : (double.NaN, double.NaN, double.NaN, "h2load output not understood: " + output.Trim());
    }

    public static (double, string) ParseWrk(string output)
    {
        var rate = Regex.Match(output, @"Requests/sec:\s*([\d.]+)");
        var non2xx = Regex.Match(output, @"Non-2xx or 3xx responses:\s*(\d+)");
        var errors = Regex.Match(output, @"Socket errors:[^\n]*");
        var total = Regex.Match(output, @"(\d+) requests in ([\d.]+\w+)");
        var summary = $"wrk: {(total.Success ? total.Value : "?")}" + (non2xx.Success ? $", {non2xx.Groups[1].Value} non-2xx" : ", all 2xx") +
                      (errors.Success ? $", {errors.Value.Trim()}" : "");
        return rate.Success
            ? (double.Parse(rate.Groups[1].Value, CultureInfo.InvariantCulture), summary)
            : (double.NaN, "wrk output not understood: " + output.Trim());
    }

    public static (double, string) ParseH2Load(string output)
    {
        var rate = Regex.Match(output, @"finished in [\d.]+\w+, ([\d.]+) req/s");
        var requests = Regex.Match(output, @"requests: [^\n]*");
        var codes = Regex.Match(output, @"status codes: [^\n]*");
        var summary = $"h2load {(requests.Success ? requests.Value : "?")}; {(codes.Success ? codes.Value : "")}";
        return rate.Success
            ? (double.Parse(rate.Groups[1].Value, CultureInfo.InvariantCulture), summary)
            : (double.NaN, "h2load output not understood: " + output.Trim());
    }
}
