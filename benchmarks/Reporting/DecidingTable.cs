using ProtocolBench.Lab.Conditions;
using ProtocolBench.Lab.Network;

namespace ProtocolBench.Benchmarks.Reporting;

/// <summary>
/// What decides each verdict, from this run's parts (<see cref="VerdictParts"/>): per row, the gap between the two
/// sides split into processing, bytes on the link and opening connections, and the conditions under which the winner
/// would flip: the other connection policy, another link (the crossing rate), a cost both sides pay alike.
/// </summary>
public sealed class DecidingTable(ResultSet results, RunConditions conditions)
{
    private bool NewConnections => conditions.Connections == ConnectionPolicy.New;

    private long? Rate => conditions.Network.BitsPerSecond;

    /// <summary>The link the estimate moves to: the paper's LAN from loopback, loopback from a shaped link.</summary>
    private long? OtherRate => Rate is null ? VerdictParts.PaperLan : null;

    private string OtherLink => OtherRate is { } rate ? $"at {NetworkProfile.Rate(rate)}" : "on loopback";

    private string OtherConnections => NewConnections ? "reused connections" : "new connections";

    /// <summary>
    /// Per row, the sides compared and their parts: REST and gRPC where the paper compared them, otherwise the row's two
    /// fastest; the parts from the run's times, and from each round's medians for the estimates' intervals.
    /// </summary>
    public IReadOnlyList<Comparison> Comparisons => _comparisons ??= [.. Compare()];

    private IReadOnlyList<Comparison>? _comparisons;

    private IEnumerable<Comparison> Compare()
    {
        foreach (var (scenario, transport) in results.Rows().Where(r => r.Scenario.Group != ScenarioGroup.Floor))
        {
            var cells = scenario.Paper is not null
                ? new[] { results.Find(scenario, Protocol.Rest, transport), results.Find(scenario, Protocol.Grpc, transport) }
                : [.. Display.Protocols.Select(p => results.Find(scenario, p, transport)).OfType<CellResult>().OrderBy(c => c.Time).Take(2)];
            if (cells is [{ Wire: not null } a, { Wire: not null } b])
            {
                var rounds = a.Measured.Select(r => r.Round).Intersect(b.Measured.Select(r => r.Round)).Order();
                yield return new Comparison(
                    scenario, transport, a, b,
                    new VerdictParts(SideOf(a, null), SideOf(b, null), Rate, NewConnections),
                    [.. rounds.Select(round => new VerdictParts(SideOf(a, round), SideOf(b, round), Rate, NewConnections))],
                    results.Design);
            }
        }
    }

    public Table Table()
    {
        var table = new Table(
            "Operation", "Transport", "Paper (Table 1)", "This run", "Gap (second − first)", $"With {OtherConnections} (est.)",
            $"{Capitalised(OtherLink)} (est.)", "Equal times at", "Hidden by", "What decides it")
        { TextColumns = 10 };
        foreach (var comparison in Comparisons)
        {
            var (parts, here) = (comparison.Parts, comparison.Here);
            var (processing, transfer, opening) = parts.Gap();
            var gap = $"processing {Signed(processing)}" +
                      (Rate is null ? "" : $"; bytes {Signed(transfer)}") +
                      (NewConnections ? $"; opening {Signed(opening)}" : "");
            table.Add(
                comparison.Scenario.Short,
                Display.Of(comparison.Transport),
                comparison.Scenario.Paper?.On(comparison.Transport).Verdict ?? "–",
                new TableCell(here.ToString(), here.Named),
                gap,
                Describe(comparison.Under(Rate, !NewConnections)),
                Describe(comparison.Under(OtherRate, NewConnections)),
                EqualAt(parts),
                parts.HiddenBy() is > 0 and var hidden ? $"{Format.Time(hidden)} on both" : "already within 10 %",
                Decides(comparison));
        }

        return table;
    }

    /// <summary>"Of 14 comparisons, 3 would change their verdict with new connections and 6 at 100 Mbit/s, ..."</summary>
    public string Summary()
    {
        var comparisons = Comparisons;
        if (comparisons.Count == 0)
        {
            return "No row had two protocols with their bytes measured.";
        }

        return $"Of {comparisons.Count} comparisons, {comparisons.Count(c => c.Flips(Rate, !NewConnections))} would change their " +
               $"verdict with {OtherConnections} and {comparisons.Count(c => c.Flips(OtherRate, NewConnections))} {OtherLink}, " +
               $"by this run's parts.";
    }

    private string Decides(Comparison comparison)
    {
        var reasons = new List<string>();
        if (comparison.Flips(Rate, !NewConnections))
        {
            reasons.Add($"connections: {Says(comparison.Under(Rate, !NewConnections)!)} with {OtherConnections}");
        }

        var crossing = comparison.Parts.EqualAt() is { } rate && rate is > 1_000_000 and < 10_000_000_000
            ? $"{comparison.Parts.Lighter.Name} (fewer bytes) faster below {NetworkProfile.Rate(rate)}"
            : null;
        if (comparison.Flips(OtherRate, NewConnections))
        {
            reasons.Add($"the link: {Says(comparison.Under(OtherRate, NewConnections)!)} {OtherLink}" + (crossing is null ? "" : $", {crossing}"));
        }
        else if (crossing is not null)
        {
            reasons.Add($"the link: {crossing}");
        }

        return reasons.Count > 0
            ? string.Join("; ", reasons)
            : $"neither: {Says(comparison.Here)}" +
              (comparison.Under(Rate, !NewConnections) is null ? $" (with {OtherConnections}: not estimated)" : " with either connection policy") +
              ", no crossing from 1 Mbit/s to 10 Gbit/s";
    }

    private string EqualAt(VerdictParts parts)
    {
        if (parts.EqualAt() is { } rate)
        {
            return $"{NetworkProfile.Rate(rate)} ({parts.Lighter.Name} faster below)";
        }

        var atLoopback = parts.TimeOf(parts.A, null, NewConnections) <= parts.TimeOf(parts.B, null, NewConnections) ? parts.A.Name : parts.B.Name;
        return $"never ({atLoopback} at every rate)";
    }

    /// <summary>An estimate as the verdict rule reads it: "gRPC 1.32× [1.20–1.45]", "no clear winner (1.05× [0.90–1.22])".</summary>
    private static string Describe(Verdict? estimate) => estimate switch
    {
        null => "not estimated",
        { Named: true } => $"{estimate.Says} {estimate.Margin}",
        { Decided: true } => $"{Verdict.NoClearWinner} ({estimate.Margin})",
        _ => $"{estimate.Faster} {estimate.Margin}",
    };

    private static string Says(Verdict verdict) => verdict.Named ? $"{verdict.Says} wins" : verdict.Says;

    /// <summary>A cell as a side: its time and its floors' over the whole run, or in one round.</summary>
    private Side SideOf(CellResult cell, int? round)
    {
        double? Time(Timed? timed) => timed is null ? null : round is { } r ? timed.RoundMedian(r) : timed.Time;
        var (warm, cold) = results.Floors(cell.Protocol, cell.Transport);
        var setUp = Time(cold) - Time(warm);
        var setUpBytes = warm?.Wire is { } w && cold?.Wire is { } c ? c.TotalPerOp - w.TotalPerOp : 0;
        var bytes = cell.Wire!.TotalPerOp - (NewConnections ? setUpBytes : 0);
        return new Side(Display.Of(cell.Protocol), Time(cell)!.Value, bytes, setUp, setUpBytes);
    }

    private static string Signed(double nanoseconds) => nanoseconds >= 0 ? "+" + Format.Time(nanoseconds) : Format.Time(nanoseconds);

    private static string Capitalised(string text) => char.ToUpperInvariant(text[0]) + text[1..];
}
