namespace ProtocolBench.Benchmarks.Reporting.Summary;

/// <summary>What decides each verdict, and what would flip it, estimated from the run's parts.</summary>
internal sealed class DecidingSection(ResultSet results, BenchmarkRun run)
{
    public SummarySection Section()
    {
        var deciding = new DecidingTable(results, run.Conditions);
        return new("What decides each verdict",
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
            deciding.Comparisons.Count > 0 ? deciding.Table() : null, null);
    }
}
