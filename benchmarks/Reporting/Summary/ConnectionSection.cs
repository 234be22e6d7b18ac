namespace ProtocolBench.Benchmarks.Reporting.Summary;

/// <summary>What opening a connection costs, in time and bytes, per protocol and transport.</summary>
internal sealed class ConnectionSection(ResultSet results, BenchmarkRun run)
{
    /// <summary>
    /// Per protocol and transport: the floor on a warm connection and on a new one, measured in the same rounds, their
    /// difference (what opening a connection costs, with its 95 % interval), and the bytes per call of each.
    /// </summary>
    private Table Table()
    {
        var table = new Table(["", .. Display.Columns().Select(c => Display.Of(c.Protocol, c.Transport))]);
        TableCell[] Row(Func<(Protocol Protocol, Transport Transport), string?> value) =>
            [.. Display.Columns().Select(c => (TableCell)(value(c) ?? "–"))];
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

    public SummarySection Section() => new("Opening a connection",
        "The floor on a warm connection and on a new connection per call (TCP connect; on HTTPS the TLS handshake; for h2 " +
        "the HTTP/2 preface and settings), measured in every run whatever --connections says; their difference, round by " +
        "round with its 95 % interval, is what a client pays each time it opens a connection. The bytes a new connection adds " +
        "are its set-up (TLS resumes the session of an earlier connection where it can, as browsers and JMeter do) and, on " +
        "HTTP/1.1, the Connection: close headers. " +
        (run.Conditions.Connections == ConnectionPolicy.New
        ? "This run opened a new connection for every request (--connections new): every time above contains this cost once."
        : "This run reused warm connections (--connections reuse): no time above contains it; --connections new measures every operation with it."),
        results.Has(Catalogue.FloorNewConnection) ? Table() : null, null);
}
