namespace ProtocolBench.Lab.Charts;

/// <summary>One bar of a panel: a value, drawn in a colour (paler when <paramref name="Pale"/>), labelled with its text.</summary>
public sealed record PanelBar(string Name, string Colour, bool Pale, double Value, string Text);
