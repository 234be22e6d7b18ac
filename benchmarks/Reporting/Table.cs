using System.Net;
using System.Text;

namespace ProtocolBench.Benchmarks.Reporting;

/// <summary>One table, rendered as GitHub Markdown and as HTML from the same rows.</summary>
public sealed class Table(params string[] headers)
{
    private readonly List<TableCell[]> _rows = [];

    public string[] Headers { get; } = headers;

    public IReadOnlyList<TableCell[]> Rows => _rows;

    public Table Add(params TableCell[] cells)
    {
        _rows.Add(cells);
        return this;
    }

    public string ToMarkdown()
    {
        var text = new StringBuilder();
        text.AppendLine("| " + string.Join(" | ", Headers.Select(Escape)) + " |");
        text.AppendLine("|" + string.Join("|", Headers.Select((_, i) => i == 0 ? "---" : "---:")) + "|");
        foreach (var row in _rows)
        {
            text.AppendLine("| " + string.Join(" | ", row.Select(c => c.Strong && c.Text.Length > 0 ? $"**{Escape(c.Text)}**" : Escape(c.Text))) + " |");
        }

        return text.ToString();
    }

    public string ToHtml()
    {
        var html = new StringBuilder("<table>\n<thead><tr>");
        foreach (var header in Headers)
        {
            html.Append("<th>").Append(WebUtility.HtmlEncode(header)).Append("</th>");
        }

        html.Append("</tr></thead>\n<tbody>\n");
        foreach (var row in _rows)
        {
            html.Append("<tr>");
            foreach (var cell in row)
            {
                var text = WebUtility.HtmlEncode(cell.Text);
                html.Append("<td>").Append(cell.Strong ? $"<strong>{text}</strong>" : text).Append("</td>");
            }

            html.Append("</tr>\n");
        }

        return html.Append("</tbody>\n</table>\n").ToString();
    }

    /// <summary>Plain text with aligned columns, for the console.</summary>
    public string ToText()
    {
        var widths = Headers.Select((h, i) => Math.Max(h.Length, _rows.Count == 0 ? 0 : _rows.Max(r => i < r.Length ? r[i].Text.Length : 0))).ToArray();
        var text = new StringBuilder();
        text.AppendLine(string.Join("  ", Headers.Select((h, i) => i == 0 ? h.PadRight(widths[i]) : h.PadLeft(widths[i]))));
        foreach (var row in _rows)
        {
            text.AppendLine(string.Join("  ", row.Select((c, i) => i == 0 ? c.Text.PadRight(widths[i]) : c.Text.PadLeft(widths[i]))));
        }

        return text.ToString();
    }

    private static string Escape(string text) => text.Replace("|", "\\|");
}
