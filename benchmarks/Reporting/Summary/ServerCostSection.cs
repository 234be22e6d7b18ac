namespace ProtocolBench.Benchmarks.Reporting.Summary;

/// <summary>What each operation costs the service: CPU time and allocations per operation, and the check of the CPU accounts.</summary>
internal sealed class ServerCostSection(ResultSet results)
{
    /// <summary>Per operation, protocol and transport: the service's CPU time and allocations per operation, CPU ÷ REST's with its interval.</summary>
    private Table? Table()
    {
        if (!results.Cells.Any(c => c.Costs.Any()))
        {
            return null;
        }

        var table = new Table(["Operation (server CPU/op, × REST [95 %]; allocated/op)", .. Display.Columns().Select(c => Display.Of(c.Protocol, c.Transport))]);
        foreach (var scenario in Catalogue.All.Where(results.Has))
        {
            table.Add([scenario.Short, .. Display.Columns().Select(c =>
            {
                if (results.Find(scenario, c.Protocol, c.Transport) is not { } cell || !double.IsFinite(cell.ServerCpuMicros))
                {
                    return (TableCell)"–";
                }

                var ratio = results.ServerCpuToRest(cell) is { } r ? $" ({r})" : "";
                return (TableCell)$"{SummaryText.Micros(cell.ServerCpuMicros)}{ratio}; {SummaryText.Size(cell.ServerAllocatedBytes)}";
            })]);
        }

        return table;
    }

    public SummarySection Section() => new("What each operation costs the service",
        "The service's CPU time per operation (user + system) and the bytes it allocated per operation, by its runtime's own " +
        "account: its System.Runtime meter (dotnet.process.cpu.time, dotnet.gc.heap.total_allocated) read over EventPipe, as " +
        "dotnet-counters reads it, when a cell's measured iterations begin and when they end (the service idle at both " +
        "instants; warm-up and pilot left out). CPU is the geometric mean of the rounds' and, in parentheses, ÷ REST's on the " +
        "same row, paired round by round with its 95 % interval; allocations the median of the rounds'. The services run " +
        "one per process, so a protocol's figure is its service's alone (both SignalR columns are the one SignalR service). " +
        "Client CPU per operation is in \"Every cell\". " + CpuAccounts.Check(results.CostReadings()),
        Table(), null);
}
