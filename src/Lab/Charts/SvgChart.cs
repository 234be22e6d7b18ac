using System.Text;
using static ProtocolBench.Lab.Charts.SvgText;

namespace ProtocolBench.Lab.Charts;

/// <summary>
/// The one chart module of both commands' reports: plain SVG line charts, grouped bars, panels of horizontal bars and
/// intervals (the matrix is <see cref="SvgMatrix"/>). Hand-written because the charts are inlined in self-contained HTML
/// and Markdown reports: no package served here writes SVG without a native graphics library.
/// </summary>
public static class SvgChart
{
    // The line and bar charts' page, and the plot inside it: the margins hold the axis labels (left, bottom) and the legend (right).
    private const int Width = 880, Height = 440, Left = 72, Right = 230, Top = 44, Bottom = 56;
    private const int PlotWidth = Width - Left - Right, PlotHeight = Height - Top - Bottom;

    /// <summary>
    /// Lines over x; with <paramref name="categories"/> the x values are indexes into those labels. A logarithmic y axis
    /// (<paramref name="logarithmic"/>) keeps small values apart when one point is orders of magnitude above the rest
    /// (latency past saturation); it shows positive values only. A <paramref name="threshold"/> is drawn across the plot.
    /// </summary>
    public static string Lines(string title, string xLabel, string yLabel, IReadOnlyList<ChartSeries> series, IReadOnlyList<string>? categories = null,
        bool logarithmic = false, Threshold? threshold = null)
    {
        bool Shown(double y) => double.IsFinite(y) && (!logarithmic || y > 0);
        var points = series.SelectMany(s => s.Points).Where(p => Shown(p.Y)).ToList();
        var (xMin, xMax) = categories is not null
            ? (-0.5, categories.Count - 0.5)
            : points.Count == 0 ? (0, 1) : (points.Min(p => p.X), Math.Max(points.Max(p => p.X), points.Min(p => p.X) + 1));
        var ys = points.Select(p => p.Y).Concat(threshold is null ? [] : [threshold.Value]).ToList();
        var axis = logarithmic
            ? ChartAxis.Logarithmic(ys.DefaultIfEmpty(1).Min(), ys.DefaultIfEmpty(1).Max())
            : ChartAxis.Linear(ys.DefaultIfEmpty(1).Max());
        double X(double x) => Left + (x - xMin) / (xMax - xMin) * PlotWidth;
        double Y(double y) => Top + PlotHeight - axis.Fraction(y) * PlotHeight;

        var svg = Begin(title);
        Grid(svg, axis.Ticks, yLabel, Y);
        if (threshold is not null)
        {
            svg.Append($"<line x1=\"{Left}\" x2=\"{Left + PlotWidth}\" y1=\"{F(Y(threshold.Value))}\" y2=\"{F(Y(threshold.Value))}\" stroke=\"#c00\" stroke-dasharray=\"3 3\"/>\n");
            Text(svg, Left + PlotWidth - 4, Y(threshold.Value) - 5, threshold.Label, "end");
        }

        if (categories is not null)
        {
            for (var i = 0; i < categories.Count; i++)
            {
                Text(svg, X(i), Top + PlotHeight + 18, categories[i], "middle");
            }
        }
        else
        {
            var (xStep, _) = ChartAxis.StepAndTop(xMax - xMin);
            for (var x = Math.Ceiling(xMin / xStep) * xStep; x <= xMax + 1e-9; x += xStep)
            {
                Text(svg, X(x), Top + PlotHeight + 18, ChartAxis.Label(x), "middle");
            }
        }

        Text(svg, Left + PlotWidth / 2.0, Height - 14, xLabel, "middle");
        foreach (var s in series)
        {
            var valid = s.Points.Where(p => Shown(p.Y)).ToList();
            if (valid.Count == 0)
            {
                continue;
            }

            var path = string.Join(' ', valid.Select(p => $"{F(X(p.X))},{F(Y(p.Y))}"));
            svg.Append($"<polyline fill=\"none\" stroke=\"{s.Colour}\" stroke-width=\"2\"{Dash(s.Dashed)} points=\"{path}\"/>\n");
            if (valid.Count <= 60)
            {
                foreach (var p in valid)
                {
                    svg.Append($"<circle cx=\"{F(X(p.X))}\" cy=\"{F(Y(p.Y))}\" r=\"3\" fill=\"{s.Colour}\"><title>{Escape(s.Name)}: {ChartAxis.Label(p.Y)}</title></circle>\n");
                }
            }
        }

        Legend(svg, series.Select(s => (s.Name, s.Colour, s.Dashed)).ToList());
        return End(svg);
    }

    /// <summary>Grouped bars: one group per label, one bar per series.</summary>
    public static string Bars(string title, string yLabel, IReadOnlyList<string> groups, IReadOnlyList<BarSeries> series)
    {
        var values = series.SelectMany(s => s.Values).Where(double.IsFinite).ToList();
        var axis = ChartAxis.Linear(values.Count == 0 ? 1 : values.Max());
        double Y(double y) => Top + PlotHeight - axis.Fraction(y) * PlotHeight;
        var groupWidth = PlotWidth / (double)Math.Max(groups.Count, 1);
        // Names wider than their group (about 7 px a character) are slanted down to the right, so that neighbours do not overlap.
        var longest = groups.Select(g => g.Length).DefaultIfEmpty(0).Max();
        var slanted = longest * 7 > groupWidth;
        var svg = Begin(title, Width, Height + (slanted ? (int)(longest * 7 * 0.5) : 0));
        Grid(svg, axis.Ticks, yLabel, Y);
        var barWidth = groupWidth * 0.8 / Math.Max(series.Count, 1);
        for (var g = 0; g < groups.Count; g++)
        {
            var x0 = Left + g * groupWidth + groupWidth * 0.1;
            for (var s = 0; s < series.Count; s++)
            {
                var value = g < series[s].Values.Count ? series[s].Values[g] : double.NaN;
                if (!double.IsFinite(value))
                {
                    continue;
                }

                var top = Y(value);
                svg.Append($"<rect x=\"{F(x0 + s * barWidth)}\" y=\"{F(top)}\" width=\"{F(barWidth - 1)}\" height=\"{F(Top + PlotHeight - top)}\" " +
                           $"fill=\"{series[s].Colour}\"><title>{Escape(groups[g])} {Escape(series[s].Name)}: {ChartAxis.Label(value)}</title></rect>\n");
            }

            var (x, y) = (Left + (g + 0.5) * groupWidth, Top + PlotHeight + 18);
            if (slanted)
            {
                svg.Append($"<text x=\"{F(x - 4)}\" y=\"{F(y - 4)}\" text-anchor=\"start\" transform=\"rotate(30 {F(x - 4)} {F(y - 4)})\">{Escape(groups[g])}</text>\n");
            }
            else
            {
                Text(svg, x, y, groups[g], "middle");
            }
        }

        Legend(svg, series.Select(s => (s.Name, s.Colour, false)).ToList());
        return End(svg);
    }

    /// <summary>
    /// Panels of horizontal bars, one per group, each on its own linear scale (for values that differ by orders of
    /// magnitude between groups); every bar is labelled with its text, and a missing value shows "–".
    /// </summary>
    public static string Panels(string title, IReadOnlyList<(string Name, string Colour, bool Pale)> legend, IReadOnlyList<Panel> panels)
    {
        const int labelWidth = 330, barArea = 430, barHeight = 11, barGap = 2, panelGap = 16, legendLine = 16;
        var bars = panels.Count == 0 ? 0 : panels.Max(p => p.Bars.Count);
        var panelHeight = bars * (barHeight + barGap);
        var width = labelWidth + barArea + 90;
        // The legend in lines as wide as the chart, each entry as wide as its name (about 7 px a character at this size).
        var entries = new List<(double X, int Line)>();
        var (left, line) = (20.0, 0);
        foreach (var entry in legend)
        {
            var entryWidth = 16 + entry.Name.Length * 7 + 14;
            if (left + entryWidth > width && left > 20)
            {
                (left, line) = (20, line + 1);
            }

            entries.Add((left, line));
            left += entryWidth;
        }

        var top = 64 + (entries.Count == 0 ? 0 : entries[^1].Line * legendLine);
        var svg = Begin(title, width, top + panels.Count * (panelHeight + panelGap));
        for (var i = 0; i < legend.Count; i++)
        {
            var (x, y0) = (entries[i].X, 36 + entries[i].Line * legendLine);
            svg.Append($"<rect x=\"{F(x)}\" y=\"{y0}\" width=\"12\" height=\"10\" fill=\"{legend[i].Colour}\" fill-opacity=\"{Opacity(legend[i].Pale)}\"/>");
            Text(svg, x + 16, y0 + 9, legend[i].Name, "start");
        }

        var y = top;
        foreach (var panel in panels)
        {
            var max = panel.Bars.Select(b => b.Value).Where(double.IsFinite).DefaultIfEmpty(1).Max();
            svg.Append($"<text x=\"{labelWidth - 10}\" y=\"{y + panelHeight / 2 + 4}\" text-anchor=\"end\" font-weight=\"600\">{Escape(panel.Label)}</text>\n");
            for (var i = 0; i < panel.Bars.Count; i++)
            {
                var bar = panel.Bars[i];
                var barY = y + i * (barHeight + barGap);
                if (!double.IsFinite(bar.Value))
                {
                    Text(svg, labelWidth + 4, barY + 9, "–", "start");
                    continue;
                }

                var length = Math.Max(1, bar.Value / max * barArea);
                svg.Append($"<rect x=\"{labelWidth}\" y=\"{barY}\" width=\"{F(length)}\" height=\"{barHeight}\" fill=\"{bar.Colour}\" " +
                           $"fill-opacity=\"{Opacity(bar.Pale)}\"><title>{Escape(bar.Name)}: {Escape(bar.Text)}</title></rect>");
                Text(svg, labelWidth + length + 4, barY + 9, bar.Text, "start");
            }

            y += panelHeight + panelGap;
        }

        return End(svg);
    }

    /// <summary>
    /// Ratios with their intervals on one logarithmic scale (a forest plot): a line at 1 and a shaded band for the
    /// differences too small to matter (<paramref name="band"/>, e.g. 0.10 for ±10 %). Every mark is labelled with its text.
    /// </summary>
    public static string Intervals(string title, IReadOnlyList<(string Name, string Colour)> legend, IReadOnlyList<IntervalRow> rows, double band)
    {
        const int labelWidth = 330, plotWidth = 480, markHeight = 14, rowGap = 10, top = 70;
        var marks = rows.SelectMany(r => r.Marks).ToList();
        // As wide as the longest mark's text at about 0.6 em a character, so that none runs past the edge.
        var textWidth = (int)Math.Max(290, marks.Select(m => $"{m.Name} {m.Text}".Length * 12 * 0.6 + 16).DefaultIfEmpty(0).Max());
        var values = marks.SelectMany(m => new[] { m.Ratio, m.Low, m.High }).Where(v => double.IsFinite(v) && v > 0).ToList();
        // At most 0.2×–5×: a wider interval (two rounds) runs off the edge, and its text gives the numbers.
        var (min, max) = (
            Math.Max(Math.Min(values.DefaultIfEmpty(1).Min(), 1 / (1 + band)) / 1.05, 0.2),
            Math.Min(Math.Max(values.DefaultIfEmpty(1).Max(), 1 + band) * 1.05, 5));
        double X(double ratio) => labelWidth + (Math.Log(Math.Clamp(ratio, min, max)) - Math.Log(min)) / (Math.Log(max) - Math.Log(min)) * plotWidth;

        var height = top + rows.Sum(r => r.Marks.Count * markHeight + rowGap) + 30;
        var svg = Begin(title, labelWidth + plotWidth + textWidth, height);
        for (var i = 0; i < legend.Count; i++)
        {
            var x = labelWidth + i * 110;
            svg.Append($"<circle cx=\"{x + 6}\" cy=\"41\" r=\"5\" fill=\"{legend[i].Colour}\"/>");
            Text(svg, x + 16, 45, legend[i].Name, "start");
        }

        var bottom = height - 30;
        svg.Append($"<rect x=\"{F(X(1 / (1 + band)))}\" y=\"{top - 6}\" width=\"{F(X(1 + band) - X(1 / (1 + band)))}\" height=\"{bottom - top + 6}\" fill=\"#eee\"/>\n");
        foreach (var tick in ChartAxis.LogTicks(min, max))
        {
            svg.Append($"<line x1=\"{F(X(tick))}\" x2=\"{F(X(tick))}\" y1=\"{top - 6}\" y2=\"{bottom}\" stroke=\"{(tick == 1 ? "#444" : "#ddd")}\"/>\n");
            Text(svg, X(tick), bottom + 14, ChartAxis.Label(tick) + "×", "middle");
        }

        var y = top;
        foreach (var row in rows)
        {
            svg.Append($"<text x=\"{labelWidth - 10}\" y=\"{y + row.Marks.Count * markHeight / 2 + 4}\" text-anchor=\"end\" font-weight=\"600\">{Escape(row.Label)}</text>\n");
            foreach (var mark in row.Marks)
            {
                var cy = y + markHeight / 2.0;
                if (double.IsFinite(mark.Low) && double.IsFinite(mark.High))
                {
                    svg.Append($"<line x1=\"{F(X(mark.Low))}\" x2=\"{F(X(mark.High))}\" y1=\"{F(cy)}\" y2=\"{F(cy)}\" stroke=\"{mark.Colour}\" stroke-width=\"2\"/>");
                }

                if (double.IsFinite(mark.Ratio))
                {
                    svg.Append($"<circle cx=\"{F(X(mark.Ratio))}\" cy=\"{F(cy)}\" r=\"4\" fill=\"{mark.Colour}\"><title>{Escape(mark.Name)}: {Escape(mark.Text)}</title></circle>");
                }

                Text(svg, labelWidth + plotWidth + 8, cy + 4, $"{mark.Name} {mark.Text}", "start");
                y += markHeight;
            }

            y += rowGap;
        }

        return End(svg);
    }

    private static StringBuilder Begin(string title, int width = Width, int height = Height) => SvgText.Begin(title, width, height);

    private static string Opacity(bool pale) => pale ? "0.45" : "1";

    private static void Grid(StringBuilder svg, IEnumerable<double> ticks, string label, Func<double, double> y)
    {
        foreach (var v in ticks)
        {
            svg.Append($"<line x1=\"{Left}\" x2=\"{Left + PlotWidth}\" y1=\"{F(y(v))}\" y2=\"{F(y(v))}\" stroke=\"#ddd\"/>\n");
            Text(svg, Left - 6, y(v) + 4, ChartAxis.Label(v), "end");
        }

        svg.Append($"<line x1=\"{Left}\" x2=\"{Left}\" y1=\"{Top}\" y2=\"{Top + PlotHeight}\" stroke=\"#444\"/>\n");
        svg.Append($"<line x1=\"{Left}\" x2=\"{Left + PlotWidth}\" y1=\"{Top + PlotHeight}\" y2=\"{Top + PlotHeight}\" stroke=\"#444\"/>\n");
        svg.Append($"<text transform=\"translate(16,{Top + PlotHeight / 2}) rotate(-90)\" text-anchor=\"middle\">{Escape(label)}</text>\n");
    }

    private static void Legend(StringBuilder svg, IReadOnlyList<(string Name, string Colour, bool Dashed)> entries)
    {
        var x = Left + PlotWidth + 16;
        for (var i = 0; i < entries.Count; i++)
        {
            var y = Top + 10 + i * 20;
            svg.Append($"<line x1=\"{x}\" x2=\"{x + 24}\" y1=\"{y}\" y2=\"{y}\" stroke=\"{entries[i].Colour}\" stroke-width=\"{(entries[i].Dashed ? 2 : 6)}\"{Dash(entries[i].Dashed)}/>\n");
            Text(svg, x + 30, y + 4, entries[i].Name, "start");
        }
    }

    private static string Dash(bool dashed) => dashed ? " stroke-dasharray=\"6 4\"" : "";
}
