using System.Net;
using System.Text;
using Markdig;

namespace ProtocolBench.Lab.Reports;

/// <summary>
/// One report of either command, built once as a list of blocks and written as Markdown (the .md file) and as a
/// self-contained HTML page (the same Markdown rendered by Markdig, the charts inline instead of linked).
/// </summary>
public sealed class Report(string title)
{
    private static readonly MarkdownPipeline Pipeline = new MarkdownPipelineBuilder().UsePipeTables().UseGenericAttributes().Build();

    private readonly List<Block> _blocks = [];

    public string Title { get; } = title;

    /// <summary>A leading paragraph: what the reader should take away.</summary>
    public Report Lead(string markdown) => Add(new Block(BlockKind.Lead, markdown));

    public Report Section(string title) => Add(new Block(BlockKind.Section, title));

    public Report Paragraph(string markdown) => Add(new Block(BlockKind.Paragraph, markdown));

    /// <summary>A section's explanation, set smaller in the HTML page.</summary>
    public Report Note(string markdown) => markdown.Length == 0 ? this : Add(new Block(BlockKind.Note, markdown));

    /// <summary>A quoted warning (an interrupted run, a problem).</summary>
    public Report Warning(string markdown) => Add(new Block(BlockKind.Warning, markdown));

    public Report Code(string text) => Add(new Block(BlockKind.Code, text));

    public Report Bullets(IEnumerable<string> items, bool note = false) =>
        Add(new Block(note ? BlockKind.NoteBullets : BlockKind.Bullets, "", Items: [.. items]));

    public Report Add(Table table) => Add(new Block(BlockKind.Table, "", table));

    /// <summary>
    /// A chart: inline SVG in the page; in the Markdown, <paramref name="markdown"/> (a link to the page or to the .svg file).
    /// With <paramref name="narrow"/>, the page shows that one instead on a screen under 720 px (a phone).
    /// </summary>
    public Report Figure(string svg, string markdown, string? narrow = null) => Add(new Block(BlockKind.Figure, markdown, Svg: svg, NarrowSvg: narrow));

    public string ToMarkdown() => Render(html: false);

    public string ToHtml() =>
        $$"""
          <!DOCTYPE html>
          <html lang="en">
          <head>
          <meta charset="utf-8">
          <meta name="viewport" content="width=device-width, initial-scale=1">
          <title>{{WebUtility.HtmlEncode(Title)}}</title>
          <style>
          body { font-family: system-ui, -apple-system, sans-serif; margin: 2rem auto; max-width: 1320px; padding: 0 1rem; color: #222; }
          h1 { margin-bottom: .2rem; } h2 { margin-top: 2.2rem; border-bottom: 1px solid #ddd; padding-bottom: .2rem; }
          table { border-collapse: collapse; font-size: 13px; margin: .6rem 0; display: block; max-width: 100%; overflow-x: auto; }
          th, td { border: 1px solid #ddd; padding: 3px 8px; text-align: right; }
          th { background: #f4f4f4; } td:first-child, th:first-child { text-align: left; }
          svg { max-width: 100%; height: auto; }
          .figure .narrow { display: none; }
          @media (max-width: 720px) { .figure .wide { display: none; } .figure .narrow { display: block; } }
          tbody tr:nth-child(even) { background: #fafafa; } strong { color: #0b5; }
          p.lead { font-size: 1.05rem; } .note { color: #555; font-size: 13px; }
          blockquote { border-left: 4px solid #e80; margin: .6rem 0; padding: .2rem .8rem; background: #fff8ee; }
          li, p { overflow-wrap: anywhere; }
          pre { background: #f4f4f4; padding: .4rem .8rem; overflow-x: auto; }
          </style>
          </head>
          <body>
          {{Markdown.ToHtml(Render(html: true), Pipeline)}}
          </body>
          </html>
          """;

    /// <summary>Writes NAME.md and NAME.html into the directory; returns their file names.</summary>
    public IReadOnlyList<string> Write(string directory, string name)
    {
        File.WriteAllText(Path.Combine(directory, name + ".md"), ToMarkdown());
        File.WriteAllText(Path.Combine(directory, name + ".html"), ToHtml());
        return [name + ".md", name + ".html"];
    }

    private Report Add(Block block)
    {
        _blocks.Add(block);
        return this;
    }

    /// <summary>The Markdown of the .md file, or (html) the variant Markdig renders for the page: classes on notes, charts inline.</summary>
    private string Render(bool html)
    {
        var md = new StringBuilder().AppendLine($"# {Title}").AppendLine();
        foreach (var block in _blocks)
        {
            switch (block.Kind)
            {
                case BlockKind.Lead:
                    md.Append(html ? "{.lead}\n" : "").AppendLine(block.Text);
                    break;
                case BlockKind.Section:
                    md.AppendLine($"## {block.Text}");
                    break;
                case BlockKind.Paragraph:
                    md.AppendLine(block.Text);
                    break;
                case BlockKind.Note:
                    md.Append(html ? "{.note}\n" : "").AppendLine(block.Text);
                    break;
                case BlockKind.Warning:
                    md.AppendLine($"> {block.Text.Replace("\n", " ")}");
                    break;
                case BlockKind.Code:
                    md.AppendLine("```").AppendLine(block.Text).AppendLine("```");
                    break;
                case BlockKind.Bullets or BlockKind.NoteBullets:
                    if (html && block.Kind == BlockKind.NoteBullets)
                    {
                        md.AppendLine("{.note}");
                    }

                    foreach (var item in block.Items!)
                    {
                        md.AppendLine($"- {item}");
                    }

                    break;
                case BlockKind.Table:
                    md.Append(block.Table!.ToMarkdown());
                    break;
                case BlockKind.Figure:
                    md.AppendLine(!html ? block.Text
                        : block.NarrowSvg is null ? $"<div class=\"figure\">{Inline(block.Svg!)}</div>"
                        : $"<div class=\"figure\"><div class=\"wide\">{Inline(block.Svg!)}</div><div class=\"narrow\">{Inline(block.NarrowSvg)}</div></div>");
                    break;
            }

            md.AppendLine();
        }

        return md.ToString();
    }

    /// <summary>An SVG as part of one HTML block, which ends at a blank line: the SVG's own blank lines would cut it short.</summary>
    private static string Inline(string svg) => svg.Replace("\r", "").Replace("\n\n", "\n");

    private enum BlockKind
    {
        Lead,
        Section,
        Paragraph,
        Note,
        Warning,
        Code,
        Bullets,
        NoteBullets,
        Table,
        Figure,
    }

    private sealed record Block(BlockKind Kind, string Text, Table? Table = null, string? Svg = null, IReadOnlyList<string>? Items = null, string? NarrowSvg = null);
}
