namespace ProtocolBench.Benchmarks.Reporting.Summary;

/// <summary>Every cell: its times, ratio to REST, round spread, allocations, wire bytes and costs.</summary>
internal sealed class CellSection(ResultSet results)
{
    private Table Table()
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
                    double.IsFinite(cell.RoundSpread) ? cell.RoundSpread.ToString("P0", SummaryText.Invariant) : "–",
                    cell.AllocatedPerOp is { } allocated ? Format.Size(allocated) : "?",
                    cell.Wire is { } wire ? Format.Bytes(wire.TotalPerOp) : "?",
                    SummaryText.Micros(cell.ServerCpuMicros),
                    SummaryText.Size(cell.ServerAllocatedBytes),
                    SummaryText.Micros(cell.ClientCpuMicros));
            }
        }

        return table;
    }

    public SummarySection Section() => new("Every cell",
        "Time (geometric mean of the rounds' medians) and 95th percentile (median of the rounds') of the per-operation time; ratio to REST on the same row with its 95 % interval; " +
        "round spread: (slowest − fastest round median) ÷ median; bytes the client allocated per operation (MemoryDiagnoser in the first round; " +
        "the client process only); bytes at the client's socket per operation.",
        Table(), null);
}
