using System.Text;
using ProtocolBench.Lab.Scenarios;

namespace ProtocolBench.LoadTests;

/// <summary>Our driver against wrk and h2load on one scenario: one row per endpoint, and its Markdown.</summary>
public sealed record DriverCheckResult(Scenario Scenario, string Machine, IReadOnlyList<DriverComparison> Rows)
{
    public static string Markdown(DriverCheckResult r)
    {
        var md = new StringBuilder();
        md.AppendLine($"Same endpoint, same concurrency, same pinning ({r.Machine}); scenario {r.Scenario.Label}. " +
                      "Our driver deserializes and checks every response; wrk and h2load only read the bytes.").AppendLine();
        md.AppendLine("| endpoint | users | connections | tool | tool req/s | our req/s | ours ÷ tool |");
        md.AppendLine("|---|---:|---:|---|---:|---:|---:|");
        foreach (var row in r.Rows)
        {
            md.AppendLine(row.Skipped is not null
                ? $"| {row.Endpoint} | {row.Users} | {row.Connections} | {row.Tool} | – | – | {row.Skipped} |"
                : $"| {row.Endpoint} | {row.Users} | {row.Connections} | {row.Tool} | {row.Theirs:N0} | {row.Ours:N0} | **{row.Ratio:F2}** |");
        }

        md.AppendLine();
        foreach (var row in r.Rows.Where(r => r.Skipped is null))
        {
            md.AppendLine($"- {row.Tool}: `{row.ToolCommand}`; rounds (ours / theirs req/s): " +
                          string.Join(", ", row.Rounds.Select(x => $"{x.OursPerSecond:F0} / {x.TheirsPerSecond:F0}")) +
                          $"; {row.Rounds[^1].TheirSummary}");
        }

        return md.ToString();
    }
}
