namespace ProtocolBench.LoadTests.Reports;

/// <summary>One of the papers' findings beside ours. Verdict: reproduced, direction only, not reproduced, not measured.</summary>
public sealed record Finding(string Paper, string Claim, string Ours, string Verdict);
