using BenchmarkDotNet.Engines;
using BenchmarkDotNet.Reports;
using ProtocolBench.Benchmarks.Suite;
using ProtocolBench.Lab;
using ProtocolBench.Lab.Scenarios;
using ProtocolBench.Shared.Clients;

namespace ProtocolBench.Benchmarks.Reporting;

/// <summary>One cell in one round: BenchmarkDotNet's statistics of its iterations (nanoseconds per operation).</summary>
public sealed record RoundResult(int Round, bool Success, double Median, double Mean, double P95, IReadOnlyList<double> Iterations, long? AllocatedPerOp)
{
    public static RoundResult From(int round, BenchmarkReport report)
    {
        var stats = report.Success ? report.ResultStatistics : null;
        var iterations = report.AllMeasurements
            .Where(m => m.IterationMode == IterationMode.Workload && m.IterationStage == IterationStage.Result)
            .Select(m => m.Nanoseconds / m.Operations)
            .ToList();
        return new RoundResult(
            round,
            stats is not null,
            stats?.Median ?? double.NaN,
            stats?.Mean ?? double.NaN,
            stats?.Percentiles.P95 ?? double.NaN,
            iterations,
            stats is null ? null : report.GcStats.GetBytesAllocatedPerOperation(report.BenchmarkCase));
    }
}

/// <summary>
/// Something measured in every round: a protocol's cell or a domain floor. Its time is the geometric mean of the rounds'
/// medians, so that the ratio of two times is the (geometric) mean of their rounds' ratios, the ratio the report gives
/// with an interval.
/// </summary>
public abstract record Timed(IReadOnlyList<RoundResult> Rounds)
{
    public bool Success => Rounds.Count > 0 && Rounds.All(r => r.Success);

    public IEnumerable<RoundResult> Measured => Rounds.Where(r => r.Success);

    public double Time => Statistic.GeometricMean(Measured.Select(r => r.Median));

    public double P95 => Statistic.Median(Measured.Select(r => r.P95));

    public long? AllocatedPerOp =>
        Measured.Select(r => r.AllocatedPerOp).OfType<long>().ToList() is { Count: > 0 } allocated ? (long)Statistic.Median(allocated.Select(a => (double)a)) : null;

    /// <summary>How far the rounds' medians lie apart: (highest − lowest) ÷ median; NaN with one round.</summary>
    public double RoundSpread
    {
        get
        {
            var medians = Measured.Select(r => r.Median).ToList();
            return medians.Count < 2 ? double.NaN : (medians.Max() - medians.Min()) / Time;
        }
    }

    public double? RoundMedian(int round) => Measured.FirstOrDefault(r => r.Round == round)?.Median;

    /// <summary>The rounds both were measured in, and their medians side by side.</summary>
    public static (double[] A, double[] B) Pairs(Timed a, Timed b)
    {
        var rounds = a.Measured.Select(r => r.Round).Intersect(b.Measured.Select(r => r.Round)).Order().ToList();
        return ([.. rounds.Select(r => a.RoundMedian(r)!.Value)], [.. rounds.Select(r => b.RoundMedian(r)!.Value)]);
    }
}

/// <summary>One cell: an operation on one protocol and transport, over all rounds.</summary>
public sealed record CellResult(Scenario Scenario, Protocol Protocol, Transport Transport, IReadOnlyList<RoundResult> Rounds, WireSample? Wire)
    : Timed(Rounds);

/// <summary>An operation's domain floor: the Shared.Domain operation in process, without any protocol, over all rounds.</summary>
public sealed record DomainFloor(Scenario Scenario, IReadOnlyList<RoundResult> Rounds) : Timed(Rounds);

/// <summary>The cells of a run, looked up by scenario, protocol and transport, and the comparisons the reports make.</summary>
public sealed class ResultSet(IReadOnlyList<CellResult> cells, IReadOnlyList<DomainFloor> domainFloors)
{
    public IReadOnlyList<CellResult> Cells { get; } = cells;

    public IReadOnlyList<DomainFloor> DomainFloors { get; } = domainFloors;

    public int Rounds => Cells.SelectMany(c => c.Rounds).Select(r => r.Round).DefaultIfEmpty(0).Max();

    public CellResult? Find(Scenario scenario, Protocol protocol, Transport transport) =>
        Cells.FirstOrDefault(c => c.Scenario == scenario && c.Protocol == protocol && c.Transport == transport && c.Success);

    public bool Has(Scenario scenario) => Cells.Any(c => c.Scenario == scenario);

    /// <summary>The rows of the report: each scenario measured, on each transport.</summary>
    public IEnumerable<(Scenario Scenario, Transport Transport)> Rows() =>
        from scenario in Catalogue.All.Where(Has)
        from transport in Display.Transports
        where Display.Protocols.Any(p => Find(scenario, p, transport) is not null)
        select (scenario, transport);

    /// <summary>b's time ÷ a's, paired round by round over the rounds both were measured in.</summary>
    public static RatioInterval Ratio(Timed a, Timed b)
    {
        var (x, y) = Timed.Pairs(a, b);
        return RatioInterval.Paired(x, y);
    }

    public DomainFloor? DomainFloorOf(Scenario scenario) => DomainFloors.FirstOrDefault(d => d.Scenario == scenario && d.Success);

    /// <summary>
    /// The protocol's overhead: the cell's time − its domain floor's, paired round by round, and the share of the cell's
    /// time it is (over the same rounds); null without a floor.
    /// </summary>
    public (DifferenceInterval Overhead, double Share)? Overhead(CellResult cell)
    {
        if (DomainFloorOf(cell.Scenario) is not { } floor)
        {
            return null;
        }

        var (x, y) = Timed.Pairs(floor, cell);
        if (x.Length == 0)
        {
            return null;
        }

        var overhead = DifferenceInterval.Paired(x, y);
        return (overhead, overhead.Difference / y.Average());
    }

    /// <summary>A cell's time ÷ REST's on the same row, or null for REST itself or when REST was not measured.</summary>
    public RatioInterval? RatioToRest(CellResult cell) =>
        cell.Protocol != Protocol.Rest && Find(cell.Scenario, Protocol.Rest, cell.Transport) is { } rest ? Ratio(rest, cell) : null;

    public RatioInterval? RatioToRest(Scenario scenario, Protocol protocol, Transport transport) =>
        Find(scenario, protocol, transport) is { } cell ? RatioToRest(cell) : null;

    /// <summary>How much the cells' medians moved between rounds: the median and the 90th percentile of their spreads.</summary>
    public (double Median, double P90, int Cells) Stability()
    {
        var spreads = Cells.Where(c => c.Success).Select(c => c.RoundSpread).Where(double.IsFinite).ToList();
        return (Statistic.Median(spreads), Statistic.Percentile(spreads, 90), spreads.Count);
    }

    /// <summary>
    /// The row's winner: the protocol with the lowest time, named only when the verdict rule names it against every
    /// other protocol of the row; the margin shown is over the closest one.
    /// </summary>
    public RowVerdict? WinnerOf(Scenario scenario, Transport transport)
    {
        var ranked = Display.Protocols.Select(p => Find(scenario, p, transport)).OfType<CellResult>().OrderBy(c => c.Time).ToList();
        if (ranked.Count < 2)
        {
            return null;
        }

        var fastest = ranked[0];
        var verdicts = ranked.Skip(1).Select(other => Verdict.Of(Display.Of(fastest.Protocol), Display.Of(other.Protocol), Ratio(fastest, other))).ToList();
        var closest = verdicts.MinBy(v => v.Faster == Display.Of(fastest.Protocol) ? v.Margin.Ratio : 1 / v.Margin.Ratio)!;
        var says = verdicts.Any(v => !v.Decided) ? Verdict.Untested
            : verdicts.All(v => v.Says == Display.Of(fastest.Protocol)) ? Display.Of(fastest.Protocol)
            : Verdict.NoClearWinner;
        return new RowVerdict(scenario, transport, says, closest);
    }

    /// <summary>REST against gRPC as the paper compared them, by the one verdict rule (<see cref="Verdict"/>).</summary>
    public Verdict? VerdictOf(Scenario scenario, Transport transport) =>
        (Find(scenario, Protocol.Rest, transport), Find(scenario, Protocol.Grpc, transport)) is ({ } rest, { } grpc)
            ? Verdict.Of(Display.Of(Protocol.Rest), Display.Of(Protocol.Grpc), Ratio(rest, grpc))
            : null;
}

/// <summary>A row's verdict: the winner's name, "no clear winner" or no verdict, and the comparison with the closest protocol.</summary>
public sealed record RowVerdict(Scenario Scenario, Transport Transport, string Says, Verdict Closest)
{
    public bool Named => Says != Verdict.NoClearWinner && Says != Verdict.Untested;

    /// <summary>The closest comparison in the verdict rule's words; "no clear winner" also when only a third protocol stops the name.</summary>
    public string Describe() => Says == Verdict.NoClearWinner
        ? $"{Verdict.NoClearWinner} ({Closest.Slower} ÷ {Closest.Faster} {Closest.Margin})"
        : Closest.ToString();
}
