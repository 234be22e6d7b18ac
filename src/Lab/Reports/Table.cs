using System.Text;

namespace ProtocolBench.Lab.Reports;

/// <summary>One table of a report: GitHub Markdown (which the report renders to HTML) and aligned text for the console, from the same rows.</summary>
public sealed class Table(params string[] headers)
{
    private readonly List<TableCell[]> _rows = [];

    public string[] Headers { get; } = headers;

    /// <summary>How many leading columns hold text and are aligned left (the rest are figures, aligned right).</summary>
    public int TextColumns { get; init; } = 1;

    /// <summary>How many trailing columns hold text (a ranking, a note) and are aligned left too.</summary>
    public int TrailingTextColumns { get; init; }

    public IReadOnlyList<TableCell[]> Rows => _rows;

    public Table Add(params TableCell[] cells)
    {
        _rows.Add(cells);
        return this;
    }

    public Table AddRange(IEnumerable<TableCell[]> rows)
    {
        _rows.AddRange(rows);
        return this;
    }

    public string ToMarkdown()
    {
        var text = new StringBuilder();
        text.AppendLine("| " + string.Join(" | ", Headers.Select(Escape)) + " |");
        text.AppendLine("|" + string.Join("|", Headers.Select((_, i) => i == 0 ? "---" : IsText(i) ? ":---" : "---:")) + "|");
        foreach (var row in _rows)
        {
            text.AppendLine("| " + string.Join(" | ", row.Select(c => c.Strong && c.Text.Length > 0 ? $"**{Escape(c.Text)}**" : Escape(c.Text))) + " |");
        }

        return text.ToString();
    }

    /// <summary>Plain text with aligned columns, for the console.</summary>
    public string ToText()
    {
        var widths = Headers.Select((h, i) => Math.Max(h.Length, _rows.Count == 0 ? 0 : _rows.Max(r => i < r.Length ? r[i].Text.Length : 0))).ToArray();
        var text = new StringBuilder();
        text.AppendLine(string.Join("  ", Headers.Select((h, i) => IsText(i) ? h.PadRight(widths[i]) : h.PadLeft(widths[i]))).TrimEnd());
        foreach (var row in _rows)
        {
            text.AppendLine(string.Join("  ", row.Select((c, i) => IsText(i) ? c.Text.PadRight(widths[i]) : c.Text.PadLeft(widths[i]))).TrimEnd());
        }

        return text.ToString();
    }

    private bool IsText(int column) => column < TextColumns || column >= Headers.Length - TrailingTextColumns;

    private static string Escape(string text) => text.Replace("|", "\\|");
}
