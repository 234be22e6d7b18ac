namespace ProtocolBench.Benchmarks.Reporting.Summary;

/// <summary>Where the time goes: the domain floor every service shares, and each protocol's overhead above it.</summary>
internal sealed class OverheadSection(ResultSet results)
{
    /// <summary>Per row: the domain floor, and each protocol's overhead above it with the share of its time that is protocol.</summary>
    private Table Table()
    {
        var table = new Table(["Operation", "Transport", "In process", .. Display.Protocols.Select(p => $"{Display.Of(p)} overhead")]);
        foreach (var (scenario, transport) in results.Rows())
        {
            if (results.DomainFloorOf(scenario) is not { } floor)
            {
                continue;
            }

            TableCell Overhead(Protocol protocol) => results.Find(scenario, protocol, transport) is { } cell && results.Overhead(cell) is var (overhead, share)
                ? $"{overhead} ({share.ToString("P0", SummaryText.Invariant)})"
                : "–";
            table.Add([scenario.Short, Display.Of(transport), Format.Time(floor.Time), .. Display.Protocols.Select(Overhead)]);
        }

        return table;
    }

    public SummarySection Section() => new("Where the time goes: shared work and protocol overhead",
        "In process: the operation's domain floor, the Shared.Domain code every service calls (the same validation, query and " +
        "files, a pooled DbContext per call as a request has), called in the benchmark process without any protocol in the " +
        "same rounds. Overhead: the cell's time − the domain floor, round by round, with its 95 % interval, and in " +
        "parentheses the share of the cell's time it is: what the protocol, its serialization and the round trip add. " +
        "Where the share is small, the protocols share most of the time and their differences are diluted.",
        Table(), null);
}
