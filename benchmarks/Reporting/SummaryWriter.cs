using System.Globalization;
using ProtocolBench.Benchmarks.Cli;
using ProtocolBench.Benchmarks.Config;
using ProtocolBench.Lab;
using ProtocolBench.Lab.Reports;
using ProtocolBench.Lab.Scenarios;
using ProtocolBench.Shared.Clients;

namespace ProtocolBench.Benchmarks.Reporting;

/// <summary>The ProtocolBench summary: summary.md and a self-contained summary.html, from the same tables.</summary>
public sealed class SummaryWriter(ResultSet results, BenchmarkRun run)
{
    public const string MarkdownFile = "summary.md";
    public const string HtmlFile = "summary.html";

    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    /// <summary>The answer first: per row, each protocol's time, its ratio to REST with the interval, the ranking and its rounds.</summary>
    public Table RankingTable()
    {
        var others = Display.Protocols.Where(p => p != Protocol.Rest).ToList();
        var table = new Table(["Operation", "Transport", .. Display.Protocols.Select(Display.Of), .. others.Select(p => $"{Display.Of(p)} ÷ REST"), "Ranking", "Rounds"])
        {
            TrailingTextColumns = 2,
        };
        foreach (var (scenario, transport) in results.Rows())
        {
            var ranking = results.RankingOf(scenario, transport);
            TableCell Time(Protocol protocol) => results.Find(scenario, protocol, transport) is { } cell
                ? new TableCell(Format.Milliseconds(cell.Time) + " ms", ranking is { Named: true } && ranking.Says == Display.Of(protocol))
                : "–";
            TableCell Ratio(Protocol protocol) => results.Find(scenario, protocol, transport) is { } cell && results.RatioToRest(cell) is { } ratio
                ? ratio.ToString()
                : "–";
            table.Add([
                scenario.Short, Display.Of(transport), .. Display.Protocols.Select(Time), .. others.Select(Ratio),
                new TableCell(ranking?.ToString() ?? "–", ranking is { Named: true }),
                ranking is null ? "–" : Settled(ranking)]);
        }

        return table;
    }

    /// <summary>
    /// How many rounds measured a row, and whether that settled it (every pair decided) or its undecided pairs sit too close
    /// to the 10 % line for the rounds left to decide them.
    /// </summary>
    private string Settled(RowRanking row) =>
        !row.Ranking.Tested ? row.Rounds.ToString(Invariant)
        : row.Ranking.Settled ? $"{row.Rounds}, settled"
        : row.OnTheLine(results.Design)
            ? $"{row.Rounds}, {row.Ranking.Undecided.Count()} undecided (on the line)"
            : $"{row.Rounds}, {row.Ranking.Undecided.Count()} undecided";

    /// <summary>Every pair the run left undecided, with its interval; null when there is none.</summary>
    public Table? UndecidedTable()
    {
        var rows = results.Rankings().Where(r => r.Ranking.Undecided.Any()).ToList();
        if (rows.Count == 0)
        {
            return null;
        }

        var table = new Table("Operation", "Transport", "Pair (slower ÷ faster [interval])", "Rounds") { TextColumns = 3, TrailingTextColumns = 1 };
        foreach (var row in rows)
        {
            foreach (var pair in row.Ranking.Undecided)
            {
                table.Add(row.Scenario.Short, Display.Of(row.Transport), pair.Pair(), row.Rounds.ToString(Invariant));
            }
        }

        return table;
    }

    public Table PaperTable()
    {
        // The paper measured REST and gRPC; the other protocols follow with our figures only.
        var beyond = Display.Protocols.Where(p => p is not (Protocol.Rest or Protocol.Grpc)).ToList();
        var table = new Table([
            "Scenario", "REST HTTP ms (paper)", "gRPC HTTP ms (paper)", "REST HTTPS ms (paper)", "gRPC HTTPS ms (paper)",
            .. beyond.SelectMany(p => Display.Transports.Select(t => $"{Display.Of(p, t)} ms"))]);
        foreach (var scenario in Catalogue.All.Where(results.Has))
        {
            TableCell Cell(Protocol protocol, Transport transport, double? paper)
            {
                var cell = results.Find(scenario, protocol, transport);
                var text = cell is null ? "–" : Format.Milliseconds(cell.Time);
                if (paper is { } value)
                {
                    text += $" ({value.ToString(Invariant)})";
                }

                var ranking = results.RankingOf(scenario, transport);
                return new TableCell(text, ranking is { Named: true } && cell is not null && ranking.Says == Display.Of(protocol));
            }

            var p = scenario.Paper;
            table.Add([
                scenario.Label,
                Cell(Protocol.Rest, Transport.Http, p?.RestHttp),
                Cell(Protocol.Grpc, Transport.Http, p?.GrpcHttp),
                Cell(Protocol.Rest, Transport.Https, p?.RestHttps),
                Cell(Protocol.Grpc, Transport.Https, p?.GrpcHttps),
                .. beyond.SelectMany(other => Display.Transports.Select(t => Cell(other, t, null)))]);
        }

        return table;
    }

    public (Table Table, int Reproduced, int Compared, List<string> Which) VerdictTable()
    {
        var table = new Table("Scenario", "Paper, no TLS", "Ours, no TLS", "Same?", "Paper, TLS", "Ours, TLS", "Same?");
        int reproduced = 0, compared = 0;
        var which = new List<string>();
        foreach (var scenario in Catalogue.All.Where(s => s.Paper is not null && results.Has(s)))
        {
            var paper = scenario.Paper!;
            var cells = new List<TableCell> { scenario.Label };
            foreach (var (transport, says) in new[] { (Transport.Http, paper.VerdictHttp), (Transport.Https, paper.VerdictHttps) })
            {
                var verdict = results.VerdictOf(scenario, transport);
                cells.Add(says);
                if (verdict is null || !verdict.Decided)
                {
                    cells.Add(verdict?.Says ?? "–");
                    cells.Add("–");
                    continue;
                }

                compared++;
                var same = verdict.Matches(says);
                if (same)
                {
                    reproduced++;
                    which.Add($"{scenario.Short.Split(' ')[0]} {(transport == Transport.Http ? "without" : "with")} TLS ({says})");
                }

                cells.Add($"{(verdict.Named ? verdict.Says : Verdict.Both)} (gRPC ÷ REST {results.RatioToRest(scenario, Protocol.Grpc, transport)})");
                cells.Add(new TableCell(same ? "yes" : "no", same));
            }

            table.Add([.. cells]);
        }

        return (table, reproduced, compared, which);
    }

    public Table CellTable()
    {
        var table = new Table(
            "Operation", "Protocol", "Transport", "Time", "P95", "× REST [95 % interval]", "Round spread", "Allocated/op", "Wire bytes/op",
            "Server CPU/op", "Server alloc/op", "Client CPU/op");
        foreach (var (scenario, transport) in results.Rows())
        {
            foreach (var protocol in Display.Protocols)
            {
                var cell = results.Cells.FirstOrDefault(c => c.Scenario == scenario && c.Protocol == protocol && c.Transport == transport);
                if (cell is null)
                {
                    continue;
                }

                if (!cell.Success)
                {
                    table.Add(scenario.Short, Display.Of(protocol), Display.Of(transport), new TableCell("FAILED", true), "", "", "", "", "", "", "", "");
                    continue;
                }

                table.Add(
                    scenario.Short,
                    Display.Of(protocol),
                    Display.Of(transport),
                    Format.Time(cell.Time),
                    Format.Time(cell.P95),
                    protocol == Protocol.Rest ? "1" : results.RatioToRest(cell)?.ToString() ?? "–",
                    double.IsFinite(cell.RoundSpread) ? cell.RoundSpread.ToString("P0", Invariant) : "–",
                    cell.AllocatedPerOp is { } allocated ? Format.Size(allocated) : "?",
                    cell.Wire is { } wire ? Format.Bytes(wire.TotalPerOp) : "?",
                    Micros(cell.ServerCpuMicros),
                    Size(cell.ServerAllocatedBytes),
                    Micros(cell.ClientCpuMicros));
            }
        }

        return table;
    }

    /// <summary>Whether the paper's figures were measured under this run's conditions, and what to run if not.</summary>
    private string LikeWithLike => run.Conditions.Preset == "bolanowski"
        ? "This run measured under the paper's set-up as far as it is known (--as bolanowski, docs/presets.md; see Network and " +
          "Connections above for what could not be emulated)."
        : "This run's conditions are not the paper's (see Network and Connections above): compare orders and ratios, not absolute " +
          "times; --as bolanowski measures under the paper's set-up as far as it is known.";

    /// <summary>The floor measured under the run's connection policy: what every operation's time contains too.</summary>
    private Scenario Floor => run.Conditions.Connections == ConnectionPolicy.New ? Catalogue.FloorNewConnection : Catalogue.Floor;

    public Table FloorTable()
    {
        var floor = Floor;
        var table = new Table(["Operation ÷ floor", .. Columns().Select(c => Display.Of(c.Protocol, c.Transport))]);
        table.Add(["Floor time", .. Columns().Select(c => (TableCell)(results.Find(floor, c.Protocol, c.Transport) is { } f ? Format.Time(f.Time) : "–"))]);
        foreach (var scenario in Catalogue.All.Where(s => s.Group != ScenarioGroup.Floor && results.Has(s)))
        {
            table.Add([scenario.Short, .. Columns().Select(c =>
            {
                var cell = results.Find(scenario, c.Protocol, c.Transport);
                var f = results.Find(floor, c.Protocol, c.Transport);
                return (TableCell)(cell is null || f is null ? "–" : results.Ratio(f, cell).ToString());
            })]);
        }

        return table;
    }

    /// <summary>Per row: the domain floor, and each protocol's overhead above it with the share of its time that is protocol.</summary>
    public Table OverheadTable()
    {
        var table = new Table(["Operation", "Transport", "In process", .. Display.Protocols.Select(p => $"{Display.Of(p)} overhead")]);
        foreach (var (scenario, transport) in results.Rows())
        {
            if (results.DomainFloorOf(scenario) is not { } floor)
            {
                continue;
            }

            TableCell Overhead(Protocol protocol) => results.Find(scenario, protocol, transport) is { } cell && results.Overhead(cell) is var (overhead, share)
                ? $"{overhead} ({share.ToString("P0", Invariant)})"
                : "–";
            table.Add([scenario.Short, Display.Of(transport), Format.Time(floor.Time), .. Display.Protocols.Select(Overhead)]);
        }

        return table;
    }

    /// <summary>
    /// Per binary file: moving its bytes over a plain TCP socket (the loopback transfer), and each cell of the file's
    /// binary form with its time ÷ that transfer's, paired round by round with its 95 % interval; null when no transfer was measured.
    /// </summary>
    public Table? TransferTable()
    {
        var measured = Catalogue.All.Where(s => results.TransferOf(s) is not null && results.Has(s)).ToList();
        if (measured.Count == 0)
        {
            return null;
        }

        var columns = Columns().Where(c => measured.Any(s => results.Find(s, c.Protocol, c.Transport) is not null)).ToList();
        var table = new Table(["Operation", "Plain TCP", .. columns.Select(c => $"{Display.Of(c.Protocol, c.Transport)} (÷ plain TCP)")]);
        foreach (var scenario in measured)
        {
            var transfer = results.TransferOf(scenario)!;
            table.Add([scenario.Short, Format.Time(transfer.Time), .. columns.Select(c => (TableCell)(results.Find(scenario, c.Protocol, c.Transport) is { } cell
                ? $"{Format.Time(cell.Time)} ({results.Ratio(transfer, cell)})"
                : "–"))]);
        }

        return table;
    }

    /// <summary>
    /// Per protocol and transport: the floor on a warm connection and on a new one, measured in the same rounds, their
    /// difference (what opening a connection costs, with its 95 % interval), and the bytes per call of each.
    /// </summary>
    public Table ConnectionTable()
    {
        var table = new Table(["", .. Columns().Select(c => Display.Of(c.Protocol, c.Transport))]);
        TableCell[] Row(Func<(Protocol Protocol, Transport Transport), string?> value) =>
            [.. Columns().Select(c => (TableCell)(value(c) ?? "–"))];
        CellResult? Warm((Protocol Protocol, Transport Transport) c) => results.Floors(c.Protocol, c.Transport).Warm;
        CellResult? New((Protocol Protocol, Transport Transport) c) => results.Floors(c.Protocol, c.Transport).New;
        table.Add(["Floor, reused connection", .. Row(c => Warm(c) is { } warm ? Format.Time(warm.Time) : null)]);
        table.Add(["Floor, new connection", .. Row(c => New(c) is { } cold ? Format.Time(cold.Time) : null)]);
        table.Add(["Opening a connection", .. Row(c => Warm(c) is { } warm && New(c) is { } cold && Timed.Pairs(warm, cold) is var (x, y) && x.Length > 0
            ? DifferenceInterval.Paired(x, y).ToString()
            : null)]);
        table.Add(["Bytes per call, reused connection", .. Row(c => Warm(c)?.Wire is { } wire ? Format.Bytes(wire.TotalPerOp) : null)]);
        table.Add(["Bytes per call, new connection", .. Row(c => New(c)?.Wire is { } wire ? Format.Bytes(wire.TotalPerOp) : null)]);
        table.Add(["Bytes a new connection adds", .. Row(c => Warm(c)?.Wire is { } warm && New(c)?.Wire is { } cold ? Format.Bytes(cold.TotalPerOp - warm.TotalPerOp) : null)]);
        return table;
    }

    public Table WireTable()
    {
        var table = new Table(["Operation (bytes/op; × REST on the same transport)", .. Columns().Select(c => Display.Of(c.Protocol, c.Transport))]);
        foreach (var scenario in Catalogue.All.Where(results.Has))
        {
            table.Add([scenario.Short, .. Columns().Select(c =>
            {
                var wire = results.Find(scenario, c.Protocol, c.Transport)?.Wire;
                var rest = results.Find(scenario, Protocol.Rest, c.Transport)?.Wire;
                if (wire is null)
                {
                    return (TableCell)"–";
                }

                return (TableCell)(rest is null ? Format.Bytes(wire.TotalPerOp) : $"{Format.Bytes(wire.TotalPerOp)} ({Format.Ratio(wire.TotalPerOp / rest.TotalPerOp)})");
            })]);
        }

        return table;
    }

    /// <summary>Per operation, protocol and transport: the service's CPU time and allocations per operation, CPU ÷ REST's with its interval.</summary>
    public Table? ServerCostTable()
    {
        if (!results.Cells.Any(c => c.Costs.Any()))
        {
            return null;
        }

        var table = new Table(["Operation (server CPU/op, × REST [95 %]; allocated/op)", .. Columns().Select(c => Display.Of(c.Protocol, c.Transport))]);
        foreach (var scenario in Catalogue.All.Where(results.Has))
        {
            table.Add([scenario.Short, .. Columns().Select(c =>
            {
                if (results.Find(scenario, c.Protocol, c.Transport) is not { } cell || !double.IsFinite(cell.ServerCpuMicros))
                {
                    return (TableCell)"–";
                }

                var ratio = results.ServerCpuToRest(cell) is { } r ? $" ({r})" : "";
                return (TableCell)$"{Micros(cell.ServerCpuMicros)}{ratio}; {Size(cell.ServerAllocatedBytes)}";
            })]);
        }

        return table;
    }

    /// <summary>The check of the services' CPU accounts, as the server-cost section states it.</summary>
    public string CpuCheck()
    {
        var (runtime, kernel, readings) = results.CpuAccounts();
        return readings == 0
            ? "No reading had the kernel's account to check it with (no /proc)."
            : $"The check: over the {readings} readings of this run, the services' runtimes counted {runtime:F2} s of CPU and the kernel " +
              $"(/proc/PID/stat, 10 ms steps) {kernel:F2} s over the same windows: {Format.SignedPercent((runtime - kernel) / kernel)} by the runtime's account.";
    }

    private static string Micros(double micros) => double.IsFinite(micros) ? Format.Time(micros * 1e3) : "–";

    private static string Size(double bytes) => double.IsFinite(bytes) ? Format.Size((long)bytes) : "–";

    /// <summary>
    /// Kamiński et al.: "WebSocket moves the fewest bytes". Per operation and transport measured on every protocol, which
    /// protocol moved the fewest, and how often that is SignalR (with either hub protocol).
    /// </summary>
    public string FewestBytes()
    {
        var measured = Display.Protocols.Where(p => results.Cells.Any(c => c.Protocol == p)).ToList();
        var rows = (from scenario in Catalogue.All.Where(s => s.Group != ScenarioGroup.Floor && results.Has(s))
                    from transport in Display.Transports
                    let cells = measured.Select(p => results.Find(scenario, p, transport)).ToList()
                    where cells.All(c => c?.Wire is not null)
                    select (Scenario: scenario, Transport: transport, Fewest: cells.MinBy(c => c!.Wire!.TotalPerOp)!.Protocol)).ToList();
        if (rows.Count == 0)
        {
            return "";
        }

        var signalR = rows.Where(r => r.Fewest.Service() == Protocol.SignalR).ToList();
        var hubProtocols = signalR.GroupBy(r => r.Fewest).OrderBy(g => g.Key).Select(g => $"{g.Count()} with {(g.Key == Protocol.SignalR ? "JSON" : "MessagePack")}");
        var others = rows.Except(signalR).GroupBy(r => r.Fewest).Select(g => $"{Display.Of(g.Key)} in {g.Count()}");
        return $"Kamiński et al. found that WebSocket moves the fewest bytes: here SignalR moves the fewest in " +
               $"{signalR.Count} of the {rows.Count} operations measured on every protocol" +
               (signalR.Count > 0 ? $" ({string.Join(", ", hubProtocols)})" : "") +
               (signalR.Count < rows.Count ? $"; {string.Join(", ", others)}" : "") + ".";
    }

    public Table EnvironmentTable() => run.Setup(
        ("BenchmarkDotNet", $"{run.BenchmarkDotNet}, in-process toolchain (client), services as separate processes"),
        ("Job", run.Job),
        ("Rounds", $"{results.Rounds} measured; {results.Design.Describe()}; cells in a shuffled order each round (seed {run.Seed}: --seed {run.Seed} repeats it)"),
        ("Service restarts", run.Restarts));

    /// <summary>Writes both files; returns the console digest.</summary>
    public string Write(string directory, IReadOnlyList<string> reportFiles)
    {
        var rankings = RankingTable();
        var (verdicts, reproduced, compared, which) = VerdictTable();
        var measured = results.Cells.Count(c => c.Success);
        var failed = results.Cells.Count(c => !c.Success);
        var rows = results.Rankings().ToList();
        var headline = $"{measured} cells measured{(failed > 0 ? $", {failed} FAILED" : "")} in {results.Rounds} round(s); job: {run.Job}." +
                       (run.Interrupted is { } why ? $" Interrupted ({why}): partial results." : "");
        var (spread, spread90, spreadCells) = results.Stability();
        var pairsLine = rows.Any(r => r.Ranking.Tested) ? PairsLine(rows)
            : $"No row has a ranking: pairs need two or more rounds (the default job runs {RoundDesign.Default.Minimum} to {RoundDesign.Default.Maximum}; --rounds N).";
        var stabilityLine = spreadCells == 0
            ? "Stability: one round, so nothing to compare it with."
            : $"Stability of this run: the cells' medians moved by {spread:P0} between rounds (median over {spreadCells} cells; 90th percentile {spread90:P0}).";
        var verdictLine = compared == 0
            ? results.Cells.Any(c => c.Scenario.Paper is not null && c.Protocol is Protocol.Rest or Protocol.Grpc)
                ? "No verdict of the paper could be compared: verdicts need two or more rounds."
                : "No verdict of the paper could be compared: this run measured none of the paper's scenarios on both REST and gRPC."
            : $"We reproduce {reproduced} of the paper's {compared} verdicts{(which.Count > 0 ? ": " + string.Join("; ", which) : "")}.";
        var rule = $"Each pair of a row is faster (the whole 95 % interval of slower ÷ faster beyond 1 + {Verdict.PracticalDifference:P0}), level (the whole " +
                   $"interval within {Verdict.PracticalDifference:P0} either way) or undecided. Tiers: the protocols no other is faster than, then the same " +
                   "among the rest; › between tiers (with the ratio to the fastest), ≈ level and ? undecided within a tier, and \"not apart\" for " +
                   "pairs the chain would order but are not (docs/methodology.md, \"Rankings\"). A sole winner (bold) is named when tier 1 " +
                   "has one protocol. " + (results.Design.Sequential
                       ? $"Rounds: {results.Design.Describe()}; the interval at a row's last round is a 95 % interval however many rounds it took."
                       : $"Rounds: {results.Design.Describe()}.");

        var deciding = new DecidingTable(results, run.Conditions);
        var sections = new List<(string Title, string Intro, Table? Table, string? Svg)>
        {
            ("Environment", "", EnvironmentTable(), null),
            ("Which protocol is faster",
                "Per operation and transport: each protocol's time (the geometric mean of its rounds' medians), each protocol's time ÷ REST's with its 95 % " +
                "interval (paired round by round: geometric mean of the rounds' ratios, Student's t with the row's round-to-round noise: the residual of its cells over its rounds), the ranking and the rounds that measured the row. " + rule,
                rankings, null),
            ("Undecided pairs",
                "The pairs whose interval reaches both sides of a 10 % line. A quieter machine (less movement of a cell from round to round) would decide them; on a row marked \"on the line\", more rounds than the design allows would be needed too.",
                UndecidedTable(), null),
            ("Ratio to REST", $"Each protocol's time ÷ REST's on the same row, with its 95 % interval; the grey band is ±{Verdict.PracticalDifference:P0}: an interval reaching into it names no winner. " +
                "The text gives the wire bytes ÷ REST's too.", null, RatioChart.Svg(results)),
            ("Times beside the paper",
                "Our times in milliseconds, laid out like Bolanowski et al. 2022 (docs/methodology.md, \"The papers\"); the paper's medians in parentheses " +
                "(two machines on a LAN, JMeter, 1 request/s). Bold: the named winner on that transport. " + LikeWithLike,
                PaperTable(), null),
            ("Verdicts (the paper's Table 1)",
                $"REST against gRPC as the paper compared them, by the same rule (the paper's \"both\" is our \"no clear winner\"). {verdictLine}",
                verdicts, null),
            ("Chart", "Time per operation, protocol and transport; each operation has its own scale.", null, BarChart.Svg(results)),
            ("Every cell",
                "Time (geometric mean of the rounds' medians) and 95th percentile (median of the rounds') of the per-operation time; ratio to REST on the same row with its 95 % interval; " +
                "round spread: (slowest − fastest round median) ÷ median; bytes the client allocated per operation (MemoryDiagnoser in the first round; " +
                "the client process only); bytes at the client's socket per operation.",
                CellTable(), null),
            ("Above the transport floor",
                "Each time divided by the floor (GET /baseline, fixed bytes) on the same service port and HTTP version" +
                (Floor == Catalogue.FloorNewConnection ? ", on a new connection as every operation here" : "") + ", with its 95 % " +
                "interval over the rounds: how much of an operation is the protocol and its work rather than the round trip itself.",
                FloorTable(), null),
            ("Opening a connection",
                "The floor on a warm connection and on a new connection per call (TCP connect; on HTTPS the TLS handshake; for h2 " +
                "the HTTP/2 preface and settings), measured in every run whatever --connections says; their difference, round by " +
                "round with its 95 % interval, is what a client pays each time it opens a connection. The bytes a new connection adds " +
                "are its set-up (TLS resumes the session of an earlier connection where it can, as browsers and JMeter do) and, on " +
                "HTTP/1.1, the Connection: close headers. " +
                (run.Conditions.Connections == ConnectionPolicy.New
                    ? "This run opened a new connection for every request (--connections new): every time above contains this cost once."
                    : "This run reused warm connections (--connections reuse): no time above contains it; --connections new measures every operation with it."),
                results.Has(Catalogue.FloorNewConnection) ? ConnectionTable() : null, null),
            ("What decides each verdict",
                "Per row, the two sides compared (REST and gRPC where the paper compared them, otherwise the row's two fastest), " +
                "this run's verdict, and what would flip it, estimated from this run's parts: each time is processing (client, " +
                "server, serialization) + the bytes above crossing the link at its rate + on new connections the cost of opening " +
                "one (\"Opening a connection\"). Gap: the second side's time − the first's in those parts. The estimates move one " +
                "condition at a time, round by round, and are read by the verdict rule with their 95 % interval over the rounds (\"not " +
                "estimated\": the floors that give the opening's cost were not measured, or taking the link or the opening away would leave " +
                "less than a quarter of a side's measured time, less than what the model leaves out); equal times at: the link rate at which the two sides cross; hidden by: a cost both pay alike " +
                "per request (a link's round trips, a load tool's own time) above which the gap is under 10 %, as in the paper's " +
                "\"both\" at 21–22 ms. Not modelled: a link's delay, TCP slow start, contention. The measured counterpart: " +
                "`compare` over runs under each condition (docs/methodology.md, \"Conditions\"). " + deciding.Summary(),
                deciding.Comparisons.Count > 0 ? deciding.Table() : null, null),
            ("Where the time goes: shared work and protocol overhead",
                "In process: the operation's domain floor, the Shared.Domain code every service calls (the same validation, query and " +
                "files, a pooled DbContext per call as a request has), called in the benchmark process without any protocol in the " +
                "same rounds. Overhead: the cell's time − the domain floor, round by round, with its 95 % interval, and in " +
                "parentheses the share of the cell's time it is: what the protocol, its serialization and the round trip add. " +
                "Where the share is small, the protocols share most of the time and their differences are diluted.",
                OverheadTable(), null),
            ("The loopback limit: the same bytes with no protocol",
                "Plain TCP: the binary file's bytes sent by the REST service's process from a plain socket (no HTTP, no framing, no " +
                "TLS; one byte asks, the file answers) on a warm connection, over the same link and between the same cores as the " +
                "cells, in the same rounds: what moving the bytes costs at all. Each cell: its time " +
                "and, in parentheses, its time ÷ the plain transfer's, round by round with its 95 % interval: how many times the " +
                "bare transfer the protocol (and on HTTPS, encryption) takes. Measured only when this run started the services.",
                TransferTable(), null),
            ("Bytes on the wire per operation",
                "Request + response bytes at the client's socket (plaintext on HTTP, TLS records on HTTPS; no TCP/IP headers), averaged " +
                "over serial operations" + (run.Conditions.Connections == ConnectionPolicy.New
                    ? ", each on a new connection, so with the bytes of opening it (see \"Opening a connection\")"
                    : " on an already open connection (the bytes of opening one are under \"Opening a connection\")") +
                "; the ratio is to REST on the same transport. " + FewestBytes(),
                WireTable(), null),
        };

        sections.Insert(sections.FindIndex(x => x.Title == "Bytes on the wire per operation") + 1,
            ("What each operation costs the service",
                "The service's CPU time per operation (user + system) and the bytes it allocated per operation, by its runtime's own " +
                "account: its System.Runtime meter (dotnet.process.cpu.time, dotnet.gc.heap.total_allocated) read over EventPipe, as " +
                "dotnet-counters reads it, when a cell's measured iterations begin and when they end (the service idle at both " +
                "instants; warm-up and pilot left out). CPU is the geometric mean of the rounds' and, in parentheses, ÷ REST's on the " +
                "same row, paired round by round with its 95 % interval; allocations the median of the rounds'. The services run " +
                "one per process, so a protocol's figure is its service's alone (both SignalR columns are the one SignalR service). " +
                "Client CPU per operation is in \"Every cell\". " + CpuCheck(),
                ServerCostTable(), null));
        sections.Insert(sections.FindIndex(x => x.Title == "What each operation costs the service") + 1,
            ("Server CPU chart", "The table's CPU times; each operation has its own scale.", null, BarChart.ServerCpu(results)));

        var notes = new[]
        {
            "Every timed invocation is one complete request and response, checked before it counts (value, length and first, middle " +
            "and last element); full responses (SHA-256 of the files, every author against the seed) are verified once per cell before timing.",
            "Client and services run on one machine over loopback unless --external was used; the paper used two machines over a LAN, " +
            "so our absolute times are lower and the protocol overheads weigh relatively more.",
            "Design (docs/methodology.md, \"Rounds and verdicts\"): every cell of a row still open is measured once per round by " +
            "BenchmarkDotNet (its own reports are in the round folders); within a round the protocols of one row run back to back, rows " +
            "and protocols in a shuffled order; service restarts: " + run.Restarts + ".",
            "Authors created by \"Create author\" are deleted after each cell.",
            "Where the four services differ (everything else is the same code in Shared.Domain, the same validation and the same " +
            "single SQL query per read): GraphQL POSTs a query document on every call, so its requests are larger; GraphQL is served " +
            "by graphql-dotnet 8.8.5 through the project's own GraphQL-over-HTTP endpoint, because HotChocolate is not available " +
            "from this build's package source; GraphQL resolvers call the same single-statement read as REST and gRPC instead of " +
            "DataLoaders, so a query that omits books still loads them; gRPC adds HTTP/2 and protobuf framing and, over plain HTTP, " +
            "uses h2c while REST and GraphQL use HTTP/1.1 (see HTTP versions above); files travel as base64 in JSON for REST and " +
            "GraphQL (a third larger) and as a protobuf bytes field for gRPC, and only REST (/raw), gRPC and SignalR (StreamPdf, " +
            "64 KiB chunks) have a binary form. SignalR keeps one WebSocket (an upgraded HTTP/1.1 connection) per client and " +
            "frames each call as a hub message, JSON (files as base64: the SignalR column) or MessagePack (files as binary: the " +
            "SignalR MessagePack column), both answered by the one SignalR service, a large answer in frames of 64 KiB; " +
            "its floor is GET /baseline on its port over HTTP/1.1, the request that would open its socket; it cannot compress " +
            "(--compression leaves its bytes as they are), and a hub message over 1 MiB closes its sender's socket where the " +
            "others refuse only that request. " +
            "GraphQL's shape documents select every field on every level of the shape, but not the empty children of its last " +
            "level (a list cannot be selected without a selection below it, one level deeper than the shape), so its objects " +
            "of the last level leave out the 14 bytes of \"children\":[] that REST and SignalR send.",
        };

        var report = new Report("ProtocolBench results");
        foreach (var line in new[] { headline, pairsLine, stabilityLine, verdictLine })
        {
            report.Lead(line);
        }

        // A section without its table (the floors were filtered out) is left out.
        foreach (var (title, intro, table, svg) in sections.Where(s => s.Table is not null || s.Svg is not null))
        {
            report.Section(title).Note(intro);
            if (table is not null)
            {
                report.Add(table);
            }
            else
            {
                report.Figure(svg!, $"See [{HtmlFile}]({HtmlFile}).");
            }
        }

        report.Section("Notes").Bullets(notes, note: true);
        // Round by round (round-2 before round-10), the same whether the run or `report` lists them.
        report.Section("BenchmarkDotNet reports").Bullets(reportFiles.Order(StringComparer.Create(CultureInfo.InvariantCulture, CompareOptions.NumericOrdering))
            .Select(file => $"[{file}]({Uri.EscapeDataString(file).Replace("%2F", "/")})"));
        report.Write(directory, Path.GetFileNameWithoutExtension(MarkdownFile));
        return $"{rankings.ToText()}\n{headline}\n{pairsLine}\n{stabilityLine}\n{verdictLine}\n";
    }

    /// <summary>The headline's count of decided pairs and named winners, and in a sequential run where the rows settled.</summary>
    private string PairsLine(IReadOnlyList<RowRanking> rows)
    {
        var pairs = rows.SelectMany(r => r.Ranking.Pairs).ToList();
        int Count(PairState state) => pairs.Count(p => p.State == state);
        var line = $"{Count(PairState.Faster) + Count(PairState.Level)} of {pairs.Count} pairs decided ({Count(PairState.Faster)} faster, " +
                   $"{Count(PairState.Level)} level, {Count(PairState.Undecided)} undecided); {rows.Count(r => r.Named)} of {rows.Count} rows name a sole winner.";
        if (!results.Design.Sequential)
        {
            return line;
        }

        var design = results.Design;
        var early = rows.Count(r => r.Ranking.Settled && r.Rounds <= design.Minimum);
        var settled = rows.Count(r => r.Ranking.Settled);
        var onTheLine = rows.Count(r => r.OnTheLine(design));
        return $"{line} Rows settled: {settled} of {rows.Count}, {early} after the first {design.Minimum} rounds; " +
               $"{rows.Count - settled} with undecided pairs" + (onTheLine > 0 ? $", {onTheLine} of them stopped with those pairs too close to the 10 % line to decide" : "") +
               $" (up to {rows.Where(r => !r.Ranking.Settled).Select(r => r.Rounds).DefaultIfEmpty(0).Max()} rounds).";
    }

    private static IEnumerable<(Protocol Protocol, Transport Transport)> Columns() => Display.Columns();
}
