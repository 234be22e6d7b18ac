namespace ProtocolBench.LoadTests.Studies;

/// <summary>One protocol and transport of the rate sweep on one scenario: its steps, up to the first beyond the bound.</summary>
/// <param name="Saturation">The highest offered rate that stayed within the bound; null when even the first did not.</param>
public sealed record RateCell(
    Scenario Scenario,
    Protocol Protocol,
    Transport Transport,
    string Status,
    IReadOnlyList<RateStep> Steps,
    double? Saturation,
    NothingLostResult? NothingLost)
{
    public bool Measured => Steps.Count > 0;

    public long Issued => Steps.Sum(s => s.Requests.Issued);

    /// <summary>Whether the sweep went past the saturation point (a step beyond the bound), rather than running out of rates.</summary>
    public bool Saturated => Steps.Any(s => !s.WithinBound);
}
