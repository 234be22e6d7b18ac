namespace ProtocolBench.Benchmarks.Reporting;

/// <summary>The cells of a run, looked up by scenario, protocol and transport, and the comparisons the reports make.</summary>
/// <param name="design">How the run's rounds were planned: it sets the confidence of every ratio's interval (null: fixed, 95 %).</param>
public sealed class ResultSet(
    IReadOnlyList<CellResult> cells, IReadOnlyList<DomainFloorResult> domainFloors, IReadOnlyList<TransferResult>? transfers = null, RoundDesign? design = null)
{
    public IReadOnlyList<CellResult> Cells { get; } = cells;

    public IReadOnlyList<DomainFloorResult> DomainFloors { get; } = domainFloors;

    public IReadOnlyList<TransferResult> Transfers { get; } = transfers ?? [];

    public int Rounds => Cells.SelectMany(c => c.Rounds).Select(r => r.Round).DefaultIfEmpty(0).Max();

    public RoundDesign Design => design ?? RoundDesign.Fixed(Math.Max(1, Rounds));

    public CellResult? Find(Scenario scenario, Protocol protocol, Transport transport) =>
        Cells.FirstOrDefault(c => c.Scenario == scenario && c.Protocol == protocol && c.Transport == transport && c.Success);

    public bool Has(Scenario scenario) => Cells.Any(c => c.Scenario == scenario);

    /// <summary>
    /// The transport floor on a warm connection and on a new one per call, for one protocol and transport: their
    /// difference is what opening a connection costs, in time and in bytes.
    /// </summary>
    public (CellResult? Warm, CellResult? New) Floors(Protocol protocol, Transport transport) =>
        (Find(Catalogue.Floor, protocol, transport), Find(Catalogue.FloorNewConnection, protocol, transport));

    /// <summary>The rows of the report: each scenario measured, on each transport.</summary>
    public IEnumerable<(Scenario Scenario, Transport Transport)> Rows() =>
        from scenario in Catalogue.All.Where(Has)
        from transport in Display.Transports
        where Display.Protocols.Any(p => Find(scenario, p, transport) is not null)
        select (scenario, transport);

    /// <summary>
    /// b's time ÷ a's, paired round by round over the rounds both were measured in, with the design's interval at that many
    /// rounds (<see cref="RoundDesign.ConfidenceAt"/>): for two cells of one row that moved alike, one whose spread is the
    /// round-to-round noise (<see cref="RowNoise"/>) of the row's cells measured in all those rounds; otherwise, and for a
    /// cell noisier than its row (<see cref="RowNoise.Noisier"/>), the pair's own. A cell a sequential design stopped
    /// measuring at its first look (its pairs were decided) keeps, with each cell measured on, the interval of those rounds.
    /// </summary>
    public RatioInterval Ratio(Timed a, Timed b)
    {
        var (x, y) = Timed.Pairs(a, b);
        if (a is CellResult one && b is CellResult other && (one.Scenario, one.Transport) == (other.Scenario, other.Transport))
        {
            var (row, cells) = RowOf(one.Scenario, one.Transport, RoundsOf(one).Intersect(RoundsOf(other)));
            return row.Ratio(cells.IndexOf(one), cells.IndexOf(other), x, y, Design);
        }

        return Design.Paired(x, y);
    }

    private readonly Dictionary<string, (CheckedRow Row, List<CellResult> Cells)> _rows = [];

    /// <summary>The row's round-to-round noise over the rounds all its protocols were measured in; null with fewer than two of either.</summary>
    public RowNoise? NoiseOf(Scenario scenario, Transport transport) => RowOf(scenario, transport).Row.Noise;

    /// <summary>The row's cells that moved more between rounds than their row mates (<see cref="RowNoise.Noisier"/>), over the rounds all were measured in.</summary>
    public IEnumerable<(CellResult Cell, NoisyCell Check)> NoisierCells(Scenario scenario, Transport transport) =>
        RowOf(scenario, transport) is var (row, cells) ? row.Noisy.Select(n => (cells[n.Index], n)) : [];

    private static IEnumerable<int> RoundsOf(Timed timed) => timed.Measured.Select(r => r.Round);

    /// <summary>The row's cells measured in all its protocols' common rounds, checked over them.</summary>
    private (CheckedRow Row, List<CellResult> Cells) RowOf(Scenario scenario, Transport transport)
    {
        var cells = Display.Protocols.Select(p => Find(scenario, p, transport)).OfType<CellResult>().ToList();
        return RowOf(scenario, transport, cells.Count == 0 ? [] : cells.Skip(1).Aggregate(RoundsOf(cells[0]), (all, c) => all.Intersect(RoundsOf(c))));
    }

    /// <summary>
    /// The row's cells measured in every one of <paramref name="rounds"/>, checked over those rounds and, past a sequential
    /// design's first look, with the cells flagged at that look kept flagged (<see cref="CheckedRow.Keeping"/>).
    /// </summary>
    private (CheckedRow Row, List<CellResult> Cells) RowOf(Scenario scenario, Transport transport, IEnumerable<int> rounds)
    {
        var over = rounds.Order().ToList();
        var key = $"{scenario.Name} {transport} {string.Join(',', over)}";
        if (!_rows.TryGetValue(key, out var row))
        {
            var cells = Display.Protocols.Select(p => Find(scenario, p, transport)).OfType<CellResult>().Where(c => !over.Except(RoundsOf(c)).Any()).ToList();
            var check = CheckedRow.Of([.. cells.Select(c => (IReadOnlyList<double>)[.. over.Select(r => c.RoundMedian(r)!.Value)])]);
            if (Design.Sequential && over.Count > Design.Minimum)
            {
                var (first, firstCells) = RowOf(scenario, transport, over.Take(Design.Minimum));
                check = check.Keeping(first.Noisy.Select(n => n with { Index = cells.IndexOf(firstCells[n.Index]) }).Where(n => n.Index >= 0));
            }

            row = _rows[key] = (check, cells);
        }

        return row;
    }

    public DomainFloorResult? DomainFloorOf(Scenario scenario) => DomainFloors.FirstOrDefault(d => d.Scenario == scenario && d.Success);

    public TransferResult? TransferOf(Scenario scenario) => Transfers.FirstOrDefault(t => t.Scenario == scenario && t.Success);

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

    /// <summary>A cell's server CPU per operation ÷ REST's on the same row, paired round by round at 95 %; null for REST, without REST, or unread.</summary>
    public RatioInterval? ServerCpuToRest(CellResult cell)
    {
        if (cell.Protocol == Protocol.Rest || Find(cell.Scenario, Protocol.Rest, cell.Transport) is not { } rest)
        {
            return null;
        }

        var rounds = (from a in rest.Measured
                      join b in cell.Measured on a.Round equals b.Round
                      where a.Cost is not null && b.Cost is not null
                      select (OfRest: a.Cost!.ServerCpuMicros, OfCell: b.Cost!.ServerCpuMicros)).ToList();
        // The cost is read in the rounds every row is measured in, whatever the looks decide (RoundRunner): a fixed 95 %.
        return rounds.Count == 0 ? null : RatioInterval.Paired([.. rounds.Select(r => r.OfRest)], [.. rounds.Select(r => r.OfCell)]);
    }

    /// <summary>Every reading of the services' cost this run took: the cells' and the loopback transfers'.</summary>
    public IEnumerable<CostPerOp> CostReadings() => Cells.Cast<Timed>().Concat(Transfers).SelectMany(t => t.Costs);

    /// <summary>How much the cells' medians moved between rounds: the median and the 90th percentile of their spreads.</summary>
    public (double Median, double P90, int Cells) Stability()
    {
        var spreads = Cells.Where(c => c.Success).Select(c => c.RoundSpread).Where(double.IsFinite).ToList();
        return (Statistic.Median(spreads), Statistic.Percentile(spreads, 90), spreads.Count);
    }

    /// <summary>
    /// The row's ranking: every pair of its protocols faster, level or undecided by the one verdict rule, in tiers
    /// (<see cref="Lab.Statistics.Ranking"/>); null when fewer than two protocols were measured.
    /// </summary>
    public RowRanking? RankingOf(Scenario scenario, Transport transport)
    {
        var cells = Display.Protocols.Select(p => Find(scenario, p, transport)).OfType<CellResult>().ToDictionary(c => Display.Of(c.Protocol));
        if (cells.Count < 2)
        {
            return null;
        }

        var ranking = Ranking.Of([.. cells.Select(c => (c.Key, c.Value.Time))], (a, b) => Ratio(cells[a], cells[b]));
        var noise = NoiseOf(scenario, transport);
        return new RowRanking(scenario, transport, ranking, cells.Values.Max(c => c.Measured.Count()),
            [.. ranking.Undecided.Where(p => noise is null || Design.CouldTellMore(p, noise))]);
    }

    /// <summary>Every row's ranking, in the report's order.</summary>
    public IEnumerable<RowRanking> Rankings() => Rows().Select(r => RankingOf(r.Scenario, r.Transport)).OfType<RowRanking>();

    /// <summary>REST against gRPC as the paper compared them, by the one verdict rule (<see cref="Verdict"/>).</summary>
    public Verdict? VerdictOf(Scenario scenario, Transport transport) =>
        (Find(scenario, Protocol.Rest, transport), Find(scenario, Protocol.Grpc, transport)) is ({ } rest, { } grpc)
            ? Verdict.Of(Display.Of(Protocol.Rest), Display.Of(Protocol.Grpc), Ratio(rest, grpc))
            : null;
}
