using System.Collections.Immutable;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Order;

namespace ProtocolBench.Benchmarks.Config;

/// <summary>
/// The execution order of one round: the protocols of one scenario and transport back to back (so the machine's drift
/// hits them alike and their ratio is taken from cells seconds apart), the rows in a shuffled order and the protocols
/// in a shuffled order within each row (so no protocol always runs first, after a restart, or after the heaviest row).
/// A scenario's domain floor (in process) is a row of its own.
/// Reports keep the declared order.
/// </summary>
public sealed class InterleavedOrderer(Random random) : IOrderer
{
    private readonly DefaultOrderer _declared = new(SummaryOrderPolicy.Declared, MethodOrderPolicy.Declared);

    public bool SeparateLogicalGroups => _declared.SeparateLogicalGroups;

    public IEnumerable<BenchmarkCase> GetExecutionOrder(ImmutableArray<BenchmarkCase> benchmarksCase, IEnumerable<BenchmarkLogicalGroupRule>? order = null)
    {
        var rows = benchmarksCase
            .GroupBy(c => (Cell.ScenarioOf(c), Cell.HasProtocol(c) ? Cell.TransportOf(c) : (Transport?)null))
            .Select(row => row.ToArray())
            .ToArray();
        random.Shuffle(rows);
        foreach (var row in rows)
        {
            random.Shuffle(row);
        }

        return rows.SelectMany(row => row);
    }

    public IEnumerable<BenchmarkCase> GetSummaryOrder(ImmutableArray<BenchmarkCase> benchmarksCases, Summary summary) =>
        _declared.GetSummaryOrder(benchmarksCases, summary);

    public string? GetHighlightGroupKey(BenchmarkCase benchmarkCase) => _declared.GetHighlightGroupKey(benchmarkCase);

    public string GetLogicalGroupKey(ImmutableArray<BenchmarkCase> allBenchmarksCases, BenchmarkCase benchmarkCase) =>
        _declared.GetLogicalGroupKey(allBenchmarksCases, benchmarkCase);

    public IEnumerable<IGrouping<string, BenchmarkCase>> GetLogicalGroupOrder(
        IEnumerable<IGrouping<string, BenchmarkCase>> logicalGroups, IEnumerable<BenchmarkLogicalGroupRule>? order = null) =>
        _declared.GetLogicalGroupOrder(logicalGroups, order);
}
