namespace ProtocolBench.Benchmarks.Reporting.Summary;

/// <summary>The loopback limit: the binary files' bytes over plain TCP, and each protocol's time for them ÷ that.</summary>
internal sealed class TransferSection(ResultSet results)
{
    /// <summary>
    /// Per binary file: moving its bytes over a plain TCP socket (the loopback transfer), and each cell of the file's
    /// binary form with its time ÷ that transfer's, paired round by round with its 95 % interval; null when no transfer was measured.
    /// </summary>
    private Table? Table()
    {
        var measured = Catalogue.All.Where(s => results.TransferOf(s) is not null && results.Has(s)).ToList();
        if (measured.Count == 0)
        {
            return null;
        }

        var columns = Display.Columns().Where(c => measured.Any(s => results.Find(s, c.Protocol, c.Transport) is not null)).ToList();
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

    public SummarySection Section() => new("The loopback limit: the same bytes with no protocol",
        "Plain TCP: the binary file's bytes sent by the REST service's process from a plain socket (no HTTP, no framing, no " +
        "TLS; one byte asks, the file answers) on a warm connection, over the same link and between the same cores as the " +
        "cells, in the same rounds: what moving the bytes costs at all. Each cell: its time " +
        "and, in parentheses, its time ÷ the plain transfer's, round by round with its 95 % interval: how many times the " +
        "bare transfer the protocol (and on HTTPS, encryption) takes. Measured only when this run started the services.",
        Table(), null);
}
