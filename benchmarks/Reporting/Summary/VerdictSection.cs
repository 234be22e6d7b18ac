using ProtocolBench.Lab.Conditions;

namespace ProtocolBench.Benchmarks.Reporting.Summary;

/// <summary>REST against gRPC as the paper compared them (its Table 1), and how many of its verdicts this run reproduces.</summary>
internal sealed class VerdictSection
{
    private readonly ResultSet _results;
    private readonly RunConditions _conditions;
    private readonly Table _table;
    private readonly int _reproduced;
    private readonly int _compared;
    private readonly List<string> _which;

    public VerdictSection(ResultSet results, RunConditions conditions)
    {
        _results = results;
        _conditions = conditions;
        (_table, _reproduced, _compared, _which) = Verdicts();
    }

    /// <summary>The summary's lead line on the paper's verdicts.</summary>
    public string Line => _compared == 0

        ? _results.Cells.Any(c => c.Scenario.Paper is not null && c.Protocol is Protocol.Rest or Protocol.Grpc)
            ? "No verdict of the paper could be compared: verdicts need two or more rounds."
            : "No verdict of the paper could be compared: this run measured none of the paper's scenarios on both REST and gRPC."
        : $"We reproduce {_reproduced} of the paper's {_compared} verdicts through {Through}{(_which.Count > 0 ? ": " + string.Join("; ", _which) : "")}.";

    /// <summary>The client and conditions the verdicts were measured through: "the jmeter client on lan-100m, a new connection per request".</summary>
    private string Through =>
        $"the {_conditions.Client.Name()} client on {_conditions.Network.Name}, " +
        (_conditions.Connections == ConnectionPolicy.New ? "a new connection per request" : "kept connections");


    private (Table Table, int Reproduced, int Compared, List<string> Which) Verdicts()
    {
        var table = new Table("Scenario", "Paper, no TLS", "Ours, no TLS", "Same?", "Paper, TLS", "Ours, TLS", "Same?");
        int reproduced = 0, compared = 0;
        var which = new List<string>();
        foreach (var scenario in Catalogue.All.Where(s => s.Paper is not null && _results.Has(s)))
        {
            var paper = scenario.Paper!;
            var cells = new List<TableCell> { scenario.Label };
            foreach (var (transport, says) in new[] { (Transport.Http, paper.VerdictHttp), (Transport.Https, paper.VerdictHttps) })
            {
                var verdict = _results.VerdictOf(scenario, transport);
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

                cells.Add($"{(verdict.Named ? verdict.Says : Verdict.Both)} (gRPC ÷ REST {_results.RatioToRest(scenario, Protocol.Grpc, transport)})");
                cells.Add(new TableCell(same ? "yes" : "no", same));
            }

            table.Add([.. cells]);
        }

        return (table, reproduced, compared, which);
    }

    public SummarySection Section() => new("Verdicts (the paper's Table 1)",
        $"REST against gRPC as the paper compared them, by the same rule (the paper's \"both\" is our \"no clear winner\"). {Line}",
        _table, null);
}
