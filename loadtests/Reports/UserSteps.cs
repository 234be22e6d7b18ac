namespace ProtocolBench.LoadTests.Reports;

/// <summary>Where a scenario's protocols stop keeping up as the users grow: the first step with an error or a p99 past the bound, as the rate sweep marks its rates.</summary>
public static class UserSteps
{
    /// <summary>The scenario's first step beyond the bound for each protocol and transport, as the report's note says it; empty without a measured cell.</summary>
    public static string FirstBeyond(IReadOnlyList<UserCell> cells, double p99BoundMs)
    {
        var series = cells.GroupBy(c => (c.Protocol, c.Transport)).Where(g => g.Any(c => c.Measured)).ToList();
        if (series.Count == 0)
        {
            return "";
        }

        var beyond = new List<string>();
        var within = new List<string>();
        foreach (var steps in series)
        {
            var name = $"{Display.Of(steps.Key.Protocol)} {Display.Of(steps.Key.Transport)}";
            var first = steps.OrderBy(c => c.Users).Select(c => (c.Users, Why: Why(c, p99BoundMs))).FirstOrDefault(step => step.Why is not null);
            if (first.Why is null)
            {
                within.Add(name);
            }
            else
            {
                beyond.Add(string.Create(CultureInfo.InvariantCulture, $"{name} at {first.Users:N0} users ({first.Why})"));
            }
        }

        var users = string.Join(", ", cells.Select(c => c.Users).Distinct().Order().Select(u => u.ToString("N0", CultureInfo.InvariantCulture)));
        return string.Create(CultureInfo.InvariantCulture, $"First step beyond the bound (an error, or p99 over {p99BoundMs:0.###} ms; --p99-bound), of {users} users: ") +
               (beyond.Count == 0 ? "none" : string.Join("; ", beyond)) +
               (within.Count == 0 ? "." : $"; within it at every step: {string.Join(", ", within)}.");
    }

    /// <summary>Why a step is beyond the bound, or null when it is within it.</summary>
    private static string? Why(UserCell cell, double p99BoundMs) =>
        !cell.Measured ? (cell.Status.StartsWith("failed", StringComparison.Ordinal) ? cell.Status : null)
        : cell.Requests.NotOk > 0 ? string.Create(CultureInfo.InvariantCulture, $"{cell.Requests.NotOk:N0} not ok: {cell.Requests.ErrorText}")
        : cell.Latency.P99Ms > p99BoundMs ? string.Create(CultureInfo.InvariantCulture, $"p99 {cell.Latency.P99Ms:0.0} ms")
        : null;
}
