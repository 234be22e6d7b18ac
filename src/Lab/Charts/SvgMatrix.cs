using System.Text;
using static ProtocolBench.Lab.Charts.SvgText;

namespace ProtocolBench.Lab.Charts;

/// <summary>
/// A matrix at a glance: a row per case, a column per contender, each cell coloured by its ratio to its row's lowest on a
/// log scale (pale at 1×, darkest from <see cref="Cap"/>× on) with its text and that ratio, the row's best tier framed, and
/// the row's ranking beside it. Wide: labels left, rankings right. Narrow (a phone, about 380 px): each row's label and
/// ranking above its cells. Every width is measured from the text it holds, so nothing is cut.
/// </summary>
public static class SvgMatrix
{
    /// <summary>The ratio drawn darkest; higher ratios share its colour.</summary>
    public const double Cap = 4;

    // ColorBrewer's YlOrRd in nine steps, from pale yellow (1×) to dark red (Cap and over): sequential, and still ordered in grey.
    private static readonly string[] Palette = ["#ffffcc", "#ffeda0", "#fed976", "#feb24c", "#fd8d3c", "#fc4e2a", "#e31a1c", "#bd0026", "#800026"];

    private static readonly double[] ScaleTicks = [1, 1.1, 1.25, 1.5, 2, 3, Cap];

    private const int Margin = 10;
    private const int CellHeight = 34;

    /// <summary>The widest the wide layout's ranking column grows before it wraps.</summary>
    private const int RankingWidth = 460;

    /// <param name="legend">Lines that explain the ranking's symbols, under the colour scale.</param>
    /// <param name="narrow">The phone layout.</param>
    public static string Draw(string title, IReadOnlyList<string> columns, IReadOnlyList<MatrixRow> rows, IReadOnlyList<string> legend, bool narrow)
    {
        var layout = Layout.For(columns.Count, rows, narrow);
        var body = new StringBuilder();
        var y = Scale(body, layout.Width) + 8;
        foreach (var line in legend.SelectMany(l => Wrap(l, layout.Chars(10))))
        {
            Text(body, Margin, y, line, "start", " font-size=\"10\" fill=\"#444\"");
            y += 14;
        }

        y = Header(body, columns, layout, y + 6);
        if (rows.Count == 0)
        {
            // A run interrupted before its first cell: the page and matrix.svg say so rather than fail to be written.
            Text(body, Margin, y + 16, "No cell was measured.", "start");
            y += 24;
        }

        string? group = null;
        foreach (var row in rows)
        {
            var first = row.Group != group;
            if (first)
            {
                body.Append($"<line x1=\"{Margin}\" x2=\"{layout.Width - Margin}\" y1=\"{F(y + 3)}\" y2=\"{F(y + 3)}\" stroke=\"#999\"/>\n");
                y += 8;
            }

            y = narrow ? NarrowRow(body, layout, row, first, y) : WideRow(body, layout, row, first, y);
            group = row.Group;
        }

        var svg = Begin(title, layout.Width, (int)Math.Ceiling(y) + Margin);
        return End(svg.Append(body));
    }

    /// <summary>A row of the wide layout: its group (first row only) and label left, its ranking and note right, wrapped to their column; returns the y under it.</summary>
    private static double WideRow(StringBuilder svg, Layout layout, MatrixRow row, bool first, double y)
    {
        if (first)
        {
            Text(svg, Margin, y + 21, row.Group, "start", " font-weight=\"bold\"");
        }

        Text(svg, layout.CellsLeft - 10, y + 21, row.Label, "end");
        var ranking = Wrap(row.Ranking, layout.RankingChars(11)).ToList();
        var note = Wrap(row.Note ?? "", layout.RankingChars(10)).ToList();
        var block = ranking.Count * 13 + note.Count * 12;
        var height = Math.Max(CellHeight, block + 8);
        var (x, lineY) = (layout.CellsRight + 12, y + (height - block) / 2.0 + 10);
        foreach (var line in ranking)
        {
            Text(svg, x, lineY, line, "start", " font-size=\"11\"");
            lineY += 13;
        }

        foreach (var line in note)
        {
            Text(svg, x, lineY - 1, line, "start", " font-size=\"10\" fill=\"#555\"");
            lineY += 12;
        }

        Cells(svg, row, layout, y);
        return y + height;
    }

    /// <summary>A row of the phone's layout: its group (first row only), then its label and ranking, its cells, its note; returns the y under it.</summary>
    private static double NarrowRow(StringBuilder svg, Layout layout, MatrixRow row, bool first, double y)
    {
        if (first)
        {
            Text(svg, Margin, y + 12, row.Group, "start", " font-weight=\"bold\"");
            y += 18;
        }

        foreach (var line in Wrap($"{row.Label}: {row.Ranking}", layout.Chars(10)))
        {
            Text(svg, Margin, y + 11, line, "start", " font-size=\"10\"");
            y += 13;
        }

        Cells(svg, row, layout, y);
        y += CellHeight;
        foreach (var line in Wrap(row.Note ?? "", layout.Chars(10)))
        {
            Text(svg, Margin, y + 11, line, "start", " font-size=\"10\" fill=\"#555\"");
            y += 13;
        }

        return y;
    }

    /// <summary>The cell's colour: its ratio's place between 1 and <see cref="Cap"/> on a log scale, interpolated along the palette.</summary>
    public static string Colour(double ratio)
    {
        if (!double.IsFinite(ratio) || ratio <= 0)
        {
            return "#e0e0e0";
        }

        var at = Position(ratio) * (Palette.Length - 1);
        var (low, high) = ((int)Math.Floor(at), (int)Math.Ceiling(at));
        var share = at - low;
        int Channel(string hex, int i) => Convert.ToInt32(hex.Substring(1 + 2 * i, 2), 16);
        return "#" + string.Concat(Enumerable.Range(0, 3).Select(i =>
            ((int)Math.Round(Channel(Palette[low], i) * (1 - share) + Channel(Palette[high], i) * share)).ToString("x2", CultureInfo.InvariantCulture)));
    }

    /// <summary>Where a ratio sits on the scale, 0 at 1× (or below) and 1 at <see cref="Cap"/>× (or above).</summary>
    private static double Position(double ratio) => Math.Clamp(Math.Log(ratio) / Math.Log(Cap), 0, 1);

    private static void Cells(StringBuilder svg, MatrixRow row, Layout layout, double y)
    {
        var cellWidth = layout.CellWidth;
        for (var c = 0; c < row.Cells.Count; c++)
        {
            var x = layout.CellsLeft + c * cellWidth;
            if (row.Cells[c] is not { } cell)
            {
                Text(svg, x + cellWidth / 2.0, y + 21, "–", "middle", " fill=\"#999\"");
                continue;
            }

            var framed = cell.Tier == 1;
            var ink = double.IsFinite(cell.Ratio) && Position(cell.Ratio) >= 0.6 ? "white" : "#111";
            svg.Append($"<rect x=\"{x + 2}\" y=\"{F(y + 2)}\" width=\"{cellWidth - 4}\" height=\"{CellHeight - 4}\" rx=\"2\" fill=\"{Colour(cell.Ratio)}\"" +
                       (framed ? " stroke=\"#111\" stroke-width=\"2.5\"" : "") + $"><title>{Escape(cell.Detail)}</title></rect>\n");
            Text(svg, x + cellWidth / 2.0, y + 16, cell.Text, "middle", $" fill=\"{ink}\"{(framed ? " font-weight=\"bold\"" : "")}");
            if (double.IsFinite(cell.Ratio))
            {
                var tier = cell.Tier == 0 ? "" : layout.Narrow ? $" t{cell.Tier}" : $" · tier {cell.Tier}";
                Text(svg, x + cellWidth / 2.0, y + 28, $"{cell.Ratio.ToString("0.00", CultureInfo.InvariantCulture)}×{tier}", "middle", $" font-size=\"9.5\" fill=\"{ink}\"");
            }
        }
    }

    /// <summary>The column names over the cells, on two lines where one is wider than its column; returns the y under them.</summary>
    private static double Header(StringBuilder svg, IReadOnlyList<string> columns, Layout layout, double y)
    {
        var (left, cellWidth, size) = (layout.CellsLeft, layout.CellWidth, layout.Narrow ? 10.5 : 12);
        var lines = columns.Select(c => Width(c, size) > cellWidth - 6 ? c.Split(' ', 2) : [c]).ToList();
        var height = lines.Max(l => l.Length) * (size + 2);
        for (var c = 0; c < columns.Count; c++)
        {
            for (var l = 0; l < lines[c].Length; l++)
            {
                var lineY = y + height - (lines[c].Length - 1 - l) * (size + 2);
                Text(svg, left + (c + 0.5) * cellWidth, lineY, lines[c][l], "middle", $" font-weight=\"bold\" font-size=\"{F(size)}\"");
            }
        }

        return y + height + 2;
    }

    /// <summary>
    /// The colour scale under the title: a gradient from 1× to <see cref="Cap"/>× with its ticks, after its caption or, where
    /// that leaves it too short to label (a phone), under it; returns the y under it.
    /// </summary>
    private static double Scale(StringBuilder svg, int width)
    {
        const int barHeight = 12, steps = 48;
        const string caption = "time ÷ the row's fastest:";
        var (left, top) = (Margin + Width(caption, 11) + 8, 40.0);
        if (width - left - Margin < 320)
        {
            (left, top) = (Margin, top + 16);
        }

        var barWidth = Math.Min(440, width - left - Margin - 12);
        Text(svg, Margin, (left == Margin ? top - 6 : top + 10), caption, "start", " font-size=\"11\"");
        for (var i = 0; i < steps; i++)
        {
            var ratio = Math.Pow(Cap, (i + 0.5) / steps);
            svg.Append($"<rect x=\"{F(left + i * barWidth / steps)}\" y=\"{F(top)}\" width=\"{F(barWidth / steps + 0.5)}\" height=\"{barHeight}\" fill=\"{Colour(ratio)}\"/>");
        }

        svg.Append('\n');
        foreach (var tick in ScaleTicks)
        {
            var x = left + Position(tick) * barWidth;
            svg.Append($"<line x1=\"{F(x)}\" x2=\"{F(x)}\" y1=\"{F(top + barHeight)}\" y2=\"{F(top + barHeight + 3)}\" stroke=\"#444\"/>");
            var label = (tick == Cap ? "≥" : "") + $"{tick.ToString(CultureInfo.InvariantCulture)}×";
            Text(svg, x, top + barHeight + 13, label, "middle", " font-size=\"9.5\"");
        }

        return top + barHeight + 16;
    }

    private const double CharWidth = 0.6;

    /// <summary>About how wide a text is at a font size: 0.6 em a character, a little more than Helvetica's average, so that it fits.</summary>
    private static double Width(string text, double size) => text.Length * size * CharWidth;

    /// <summary>The text in lines of at most <paramref name="chars"/> characters, broken at spaces.</summary>
    private static IEnumerable<string> Wrap(string text, int chars)
    {
        var line = new StringBuilder();
        foreach (var word in text.Split(' '))
        {
            if (line.Length > 0 && line.Length + 1 + word.Length > chars)
            {
                yield return line.ToString();
                line.Clear();
            }

            line.Append(line.Length > 0 ? " " : "").Append(word);
        }

        if (line.Length > 0)
        {
            yield return line.ToString();
        }
    }

    /// <summary>The widths of a drawing: its label, cell and ranking columns, measured from the text they hold.</summary>
    private sealed record Layout(bool Narrow, int Columns, int CellWidth, int LabelWidth, int RankingWidth)
    {
        public static Layout For(int columns, IReadOnlyList<MatrixRow> rows, bool narrow) => narrow
            ? new(true, columns, 72, 0, 0)
            : new(false, columns, 100,
                (int)(rows.Select(r => SvgMatrix.Width(r.Group, 12.5) + SvgMatrix.Width(r.Label, 12)).DefaultIfEmpty(0).Max() + 24),
                // As wide as the longest ranking or note, up to RankingWidth; a longer one is wrapped and its row grows.
                (int)Math.Clamp(rows.Select(r => Math.Max(SvgMatrix.Width(r.Ranking, 11), SvgMatrix.Width(r.Note ?? "", 10))).DefaultIfEmpty(0).Max() + 16, 220, SvgMatrix.RankingWidth));

        public int Width => Margin * 2 + LabelWidth + Columns * CellWidth + RankingWidth;

        public int CellsLeft => Margin + LabelWidth;

        public int CellsRight => CellsLeft + Columns * CellWidth;

        /// <summary>How many characters of a font size a line across the whole drawing holds.</summary>
        public int Chars(double size) => (int)((Width - Margin * 2) / (size * CharWidth));

        /// <summary>How many characters of a font size a line of the ranking column holds.</summary>
        public int RankingChars(double size) => (int)((RankingWidth - 16) / (size * CharWidth));
    }
}
