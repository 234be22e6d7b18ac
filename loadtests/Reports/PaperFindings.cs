using ProtocolBench.Lab.Statistics;

namespace ProtocolBench.LoadTests.Reports;

/// <summary>
/// The papers' findings (docs/methodology.md, "The papers") beside our numbers. A claimed factor ("2× faster") counts as reproduced when ours is at least
/// two thirds of it, "direction only" when the order holds but the factor does not, "not reproduced" otherwise.
/// Absolute figures differ by design (their LAN and k6/JMeter, our loopback and two cores); orders and ratios can be compared.
/// </summary>
public static class PaperFindings
{
    public const string Reproduced = "reproduced";
    public const string DirectionOnly = "direction only";
    public const string NotReproduced = "not reproduced";
    public const string NotMeasured = "not measured";

    public static IReadOnlyList<Finding> Compare(IReadOnlyList<UserCell> users, IReadOnlyList<PacedCell> paced)
    {
        // The floor is the engine's own cost, not a protocol's: no paper's finding reads it.
        var cells = users.Where(c => c.Measured && c.Requests.Ok > 0 && c.Scenario.Group != ScenarioGroup.Floor).ToList();
        var findings = new List<Finding>();
        if (cells.Count > 0)
        {
            foreach (var transport in cells.Select(c => c.Transport).Distinct().Order())
            {
                foreach (var scenario in Catalogue.All.Where(s => s.Sliwa is not null))
                {
                    findings.Add(Check(cells.Where(c => c.Scenario == scenario && c.Transport == transport).ToList(), scenario.Sliwa!, transport));
                }
            }

            findings.Add(GrpcBytes(cells));
            findings.Add(RestBestOverall(cells));
        }

        findings.AddRange(PacedVerdicts(paced));
        return findings;
    }

    /// <summary>One scenario's claim against its cells on one transport.</summary>
    private static Finding Check(List<UserCell> cells, SliwaClaim claim, Transport transport)
    {
        var text = $"{claim.Text} [{transport.ToString().ToUpperInvariant()}]";
        var (ours, verdict) = claim switch
        {
            { Best: { } best } => Best(cells, best, claim.Users),
            { RestPasses: { } rate } => RestPasses(cells, rate),
            { AtEachUserCount: true } => RestOverAtEachUserCount(cells, claim.RestOver),
            _ => RestOverAtMostUsers(cells, claim.RestOver, claim.Users),
        };
        return new(Papers.Sliwa, text, ours, verdict);
    }

    private static (string Ours, string Verdict) Best(List<UserCell> cells, Protocol claimed, int claimedUsers)
    {
        var (atUsers, row) = AtMostUsers(cells);
        if (row.Count < 2)
        {
            return ("", NotMeasured);
        }

        var best = row.MaxBy(c => c.RequestsPerSecond)!;
        return ($"{Throughputs(row)} at {atUsers} users; best {Display.Of(best.Protocol)}",
            Qualified(best.Protocol == claimed ? Reproduced : NotReproduced, atUsers, claimedUsers));
    }

    private static (string Ours, string Verdict) RestPasses(List<UserCell> cells, double rate)
    {
        var rest = cells.Where(c => c.Protocol == Protocol.Rest).ToList();
        if (rest.Count == 0)
        {
            return ("", NotMeasured);
        }

        var top = rest.MaxBy(c => c.RequestsPerSecond)!;
        var others = cells.Where(c => c.Users == top.Users).ToList();
        return ($"REST up to {top.RequestsPerSecond:F0} req/s (at {top.Users} users); {Throughputs(others)}",
            top.RequestsPerSecond > rate ? Reproduced : NotReproduced);
    }

    private static (string Ours, string Verdict) RestOverAtEachUserCount(List<UserCell> cells, IReadOnlyList<(Protocol Protocol, double Factor)> claimed)
    {
        var parts = new List<string>();
        var verdicts = new List<string>();
        foreach (var users in cells.Where(c => c.Users > 1).Select(c => c.Users).Distinct().Order())
        {
            var rest = cells.FirstOrDefault(c => c.Protocol == Protocol.Rest && c.Users == users);
            foreach (var (protocol, factor) in claimed)
            {
                if (rest is null || cells.FirstOrDefault(c => c.Protocol == protocol && c.Users == users) is not { } other)
                {
                    continue;
                }

                var ratio = rest.RequestsPerSecond / other.RequestsPerSecond;
                parts.Add($"{users} users: REST {rest.RequestsPerSecond:F0}, {Display.Of(protocol)} {other.RequestsPerSecond:F0} req/s → {ratio:F2}×");
                verdicts.Add(Factor(ratio, factor));
            }
        }

        return verdicts.Count == 0 ? ("", NotMeasured) : (string.Join("; ", parts), Weakest(verdicts));
    }

    private static (string Ours, string Verdict) RestOverAtMostUsers(List<UserCell> cells, IReadOnlyList<(Protocol Protocol, double Factor)> claimed, int claimedUsers)
    {
        var (atUsers, row) = AtMostUsers(cells);
        var rest = row.FirstOrDefault(c => c.Protocol == Protocol.Rest);
        if (rest is null)
        {
            return ("", NotMeasured);
        }

        var parts = new List<string> { $"at {atUsers} users REST {rest.RequestsPerSecond:F0} req/s" };
        var verdicts = new List<string>();
        foreach (var (protocol, factor) in claimed)
        {
            if (row.FirstOrDefault(c => c.Protocol == protocol) is { } other)
            {
                var ratio = rest.RequestsPerSecond / other.RequestsPerSecond;
                parts.Add($"{Display.Of(protocol)} {other.RequestsPerSecond:F0} ({ratio:F2}×, claimed {factor:F0}×)");
                verdicts.Add(Factor(ratio, factor));
            }
        }

        return (string.Join(", ", parts), verdicts.Count == 0 ? NotMeasured : Qualified(Weakest(verdicts), atUsers, claimedUsers));
    }

    private static Finding GrpcBytes(List<UserCell> cells)
    {
        const string claim = Papers.GrpcBytesClaim;
        var parts = new List<string>();
        var ratios = new List<double>();
        foreach (var group in cells.Where(c => c.Scenario.Phrase is not null)
                     .GroupBy(c => (c.Scenario, c.Transport)).OrderBy(g => g.Key.Scenario).ThenBy(g => g.Key.Transport))
        {
            double PerRequest(Protocol p) => group.Where(c => c.Protocol == p).Select(c => c.KilobytesPerRequestReceived).DefaultIfEmpty(double.NaN).Average();
            var grpc = PerRequest(Protocol.Grpc);
            var others = new[] { PerRequest(Protocol.Rest), PerRequest(Protocol.GraphQL) }.Where(double.IsFinite).ToList();
            if (!double.IsFinite(grpc) || others.Count == 0)
            {
                continue;
            }

            var ratio = grpc / others.Average();
            ratios.Add(ratio);
            parts.Add($"{group.Key.Scenario.Name} {group.Key.Transport.ToString().ToUpperInvariant()}: gRPC {grpc:F1} KB vs {others.Average():F1} KB → {ratio:F2}");
        }

        if (ratios.Count == 0)
        {
            return new(Papers.Sliwa, claim, "", NotMeasured);
        }

        var median = Statistic.Median(ratios);
        var verdict = median >= Papers.GrpcBytesShare.Low && median <= Papers.GrpcBytesShare.High ? Reproduced : median < 0.95 ? DirectionOnly : NotReproduced;
        return new(Papers.Sliwa, claim, string.Join("; ", parts), verdict);
    }

    private static Finding RestBestOverall(List<UserCell> cells)
    {
        const string claim = Papers.RestBestClaim;
        var groups = cells.GroupBy(c => (c.Scenario, c.Users, c.Transport)).Where(g => g.Count() > 1).ToList();
        if (groups.Count == 0)
        {
            return new(Papers.Sliwa, claim, "", NotMeasured);
        }

        var fastest = groups.Count(g => g.MaxBy(c => c.RequestsPerSecond)!.Protocol == Protocol.Rest);
        var lowest = groups.Count(g => g.MinBy(c => c.Latency.P50Ms)!.Protocol == Protocol.Rest);
        var share = Math.Min(fastest, lowest) / (double)groups.Count;
        var verdict = share >= 2.0 / 3 ? Reproduced : share >= 1.0 / 3 ? DirectionOnly : NotReproduced;
        var winners = string.Join(", ", groups.GroupBy(g => g.MaxBy(c => c.RequestsPerSecond)!.Protocol)
            .Select(w => $"{Display.Of(w.Key)} {w.Count()}"));
        return new(Papers.Sliwa, claim, $"REST best throughput in {fastest} of {groups.Count} cells, lowest p50 in {lowest}; best throughput by protocol: {winners}", verdict);
    }

    /// <summary>
    /// The headline of a run with Bolanowski's paced study, as the benchmark's summary has one: "Reproduces 12 of the
    /// paper's 14 verdicts (...)" with the ones reproduced; null when no paced verdict was measured.
    /// </summary>
    public static string? PacedLine(IReadOnlyList<Finding> findings)
    {
        var verdicts = findings.Where(f => f.Paper == Papers.Bolanowski && f.Verdict != NotMeasured).ToList();
        if (verdicts.Count == 0)
        {
            return null;
        }

        var reproduced = verdicts.Where(f => f.Verdict == Reproduced).ToList();
        return $"Reproduces {reproduced.Count} of the paper's {verdicts.Count} verdicts (Bolanowski et al., the paced study; the rule of " +
               "docs/methodology.md, \"Pair states\")" + (reproduced.Count > 0 ? ": " + string.Join("; ", reproduced.Select(f => f.Claim.Split(':')[0].Replace("paced ", ""))) : "") + ".";
    }

    private static IEnumerable<Finding> PacedVerdicts(IReadOnlyList<PacedCell> paced)
    {
        foreach (var group in paced.Where(c => c.Measured && double.IsFinite(c.MedianMs)).GroupBy(c => (c.Scenario, c.Transport)))
        {
            var scenario = group.Key.Scenario;
            if (scenario is not { Bolanowski: not null, Paper: { } paper })
            {
                continue;
            }

            var rest = group.FirstOrDefault(c => c.Protocol == Protocol.Rest);
            var grpc = group.FirstOrDefault(c => c.Protocol == Protocol.Grpc);
            var graphql = group.FirstOrDefault(c => c.Protocol == Protocol.GraphQL);
            var (theirRest, theirGrpc, theirWinner) = paper.On(group.Key.Transport);
            var claim = $"paced {scenario.Label}, {Display.Of(group.Key.Transport)}: medians REST {theirRest} ms, gRPC {theirGrpc} ms → {theirWinner}";
            if (rest is null || grpc is null)
            {
                yield return new(Papers.Bolanowski, claim, "", NotMeasured);
                continue;
            }

            var ours = Verdict.Of(Display.Of(Protocol.Rest), Display.Of(Protocol.Grpc), RatioInterval.Ranked(Latencies(rest), Latencies(grpc)));
            var text = $"REST {rest.MedianMs:F2} ms, gRPC {grpc.MedianMs:F2} ms" +
                       (graphql is null ? "" : $", GraphQL {graphql.MedianMs:F2} ms") + $" → {ours}";
            yield return new(Papers.Bolanowski, claim, text, !ours.Decided ? NotMeasured : ours.Matches(theirWinner) ? Reproduced : NotReproduced);
        }
    }

    /// <summary>A paced cell as one side of a verdict: the latencies of its successful requests.</summary>
    private static double[] Latencies(PacedCell cell) =>
        cell.Samples.Where(s => s.Outcome == OutcomeKind.Ok).Select(s => s.LatencyMs).ToArray();

    private static string Factor(double ratio, double claimed) =>
        ratio >= claimed * 2 / 3 ? Reproduced : ratio > 1 ? DirectionOnly : NotReproduced;

    private static string Weakest(List<string> verdicts) =>
        verdicts.Contains(NotReproduced) ? NotReproduced : verdicts.Contains(DirectionOnly) ? DirectionOnly : Reproduced;

    private static string Qualified(string verdict, int users, int claimedUsers) =>
        users == claimedUsers ? verdict : $"{verdict} (at {users} users, not {claimedUsers})";

    private static (int Users, List<UserCell> Row) AtMostUsers(List<UserCell> cells)
    {
        if (cells.Count == 0)
        {
            return (0, []);
        }

        var users = cells.Max(c => c.Users);
        return (users, cells.Where(c => c.Users == users).ToList());
    }

    private static string Throughputs(IEnumerable<UserCell> row) =>
        string.Join(", ", row.OrderBy(c => c.Protocol).Select(c => $"{Display.Of(c.Protocol)} {c.RequestsPerSecond.ToString("F0", CultureInfo.InvariantCulture)}"))
        + " req/s";
}
