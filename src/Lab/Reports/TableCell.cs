namespace ProtocolBench.Lab.Reports;

/// <summary>A cell of a report table; strong cells are bold (the winner of a row).</summary>
public readonly record struct TableCell(string Text, bool Strong = false)
{
    public static implicit operator TableCell(string text) => new(text);
}
