namespace ProtocolBench.Lab.Charts;

/// <summary>A labelled group of horizontal bars with a scale of its own.</summary>
public sealed record Panel(string Label, IReadOnlyList<PanelBar> Bars);
