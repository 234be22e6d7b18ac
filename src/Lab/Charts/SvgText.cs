using System.Net;
using System.Text;

namespace ProtocolBench.Lab.Charts;

/// <summary>What every chart of the module writes the same way: the frame with its title, text, numbers and escaping.</summary>
internal static class SvgText
{
    /// <summary>The opening tag (a white page, the module's font) and the title centred on top.</summary>
    public static StringBuilder Begin(string title, int width, int height)
    {
        var svg = new StringBuilder();
        svg.Append($"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" " +
                   $"font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\" role=\"img\" aria-label=\"{Escape(title)}\">\n");
        svg.Append($"<rect width=\"{width}\" height=\"{height}\" fill=\"white\"/>\n");
        svg.Append($"<text x=\"{width / 2}\" y=\"24\" text-anchor=\"middle\" font-size=\"15\" font-weight=\"bold\">{Escape(title)}</text>\n");
        return svg;
    }

    public static string End(StringBuilder svg) => svg.Append("</svg>\n").ToString();

    public static void Text(StringBuilder svg, double x, double y, string text, string anchor, string attributes = "") =>
        svg.Append($"<text x=\"{F(x)}\" y=\"{F(y)}\" text-anchor=\"{anchor}\"{attributes}>{Escape(text)}</text>\n");

    public static string F(double v) => v.ToString("0.#", CultureInfo.InvariantCulture);

    public static string Escape(string text) => WebUtility.HtmlEncode(text);
}
