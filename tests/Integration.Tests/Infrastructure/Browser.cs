using Microsoft.Playwright;

namespace ProtocolBench.Integration.Tests.Infrastructure;

/// <summary>A report opened in the machine's own headless Chromium, driven by Playwright (no browser download).</summary>
public sealed class Browser : IAsyncDisposable
{
    private static readonly string[] Candidates = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

    private readonly IPlaywright _playwright;
    private readonly IBrowser _browser;
    private readonly IPage _page;
    private readonly List<string> _errors;

    private Browser(IPlaywright playwright, IBrowser browser, IPage page, List<string> errors)
    {
        (_playwright, _browser, _page, _errors) = (playwright, browser, page, errors);
    }

    /// <summary>PROTOCOLBENCH_CHROMIUM, or Debian's chromium; null when there is none.</summary>
    public static string? Chromium() =>
        Environment.GetEnvironmentVariable("PROTOCOLBENCH_CHROMIUM") is { Length: > 0 } configured ? configured : Candidates.FirstOrDefault(File.Exists);

    public static async Task<Browser> OpenAsync(string chromium, string file, int width)
    {
        Assert.True(File.Exists(file), $"{file} was not written");
        var playwright = await Playwright.CreateAsync();
        var browser = await playwright.Chromium.LaunchAsync(new() { ExecutablePath = chromium, Headless = true, Args = ["--no-sandbox"] });
        var page = await browser.NewPageAsync(new() { ViewportSize = new() { Width = width, Height = 900 } });
        var errors = new List<string>();
        page.Console += (_, message) =>
        {
            if (message.Type is "error" or "warning")
            {
                errors.Add($"console {message.Type}: {message.Text}");
            }
        };
        page.PageError += (_, error) => errors.Add($"page error: {error}");
        page.RequestFailed += (_, request) => errors.Add($"failed to load {request.Url}: {request.Failure}");
        await page.GotoAsync(new Uri(file).AbsoluteUri, new() { WaitUntil = WaitUntilState.Load, Timeout = 30_000 });
        return new Browser(playwright, browser, page, errors);
    }

    public async Task ScreenshotAsync(string path)
    {
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        await _page.ScreenshotAsync(new() { Path = path, FullPage = true });
    }

    /// <summary>Every table and chart as laid out: size, right edge, content; the page's width; what it logged.</summary>
    public async Task<Inspection> InspectAsync()
    {
        var tables = new List<Element>();
        foreach (var table in await _page.Locator("table").AllAsync())
        {
            tables.Add(await MeasureAsync(table, await table.Locator("tbody tr").CountAsync()) with
            {
                // A table wider than the page scrolls inside itself (the report's style): how much it holds beyond what it shows.
                Hidden = await table.EvaluateAsync<int>("e => e.scrollWidth - e.clientWidth"),
            });
        }

        var charts = new List<Element>();
        foreach (var chart in await _page.Locator("svg").AllAsync())
        {
            charts.Add(await MeasureAsync(chart, await chart.Locator("rect, circle, line, path").CountAsync()) with
            {
                // Text the browser draws past the chart's own frame (its viewBox) is cut off: how many such texts.
                Hidden = await chart.EvaluateAsync<int>(
                    "s => { const v = s.viewBox.baseVal; return [...s.querySelectorAll('text')].filter(t => { const b = t.getBBox(); " +
                    "return b.width > 0 && (b.x < v.x - 0.5 || b.y < v.y - 0.5 || b.x + b.width > v.x + v.width + 0.5 || b.y + b.height > v.y + v.height + 0.5); }).length; }"),
                Text = await chart.EvaluateAsync<string>("s => s.getAttribute('aria-label') ?? ''"),
            });
        }

        var scrollWidth = await _page.EvaluateAsync<int>("document.documentElement.scrollWidth");
        return new Inspection(tables, charts, scrollWidth, [.. _errors]);
    }

    public async ValueTask DisposeAsync()
    {
        await _browser.DisposeAsync();
        _playwright.Dispose();
    }

    private static async Task<Element> MeasureAsync(ILocator element, int content)
    {
        // Null for an element not shown (display: none).
        var box = await element.BoundingBoxAsync();
        var caption = await element.EvaluateAsync<string>(
            "e => { let p = e.previousElementSibling; while (p && !/^H[1-3]$/.test(p.tagName)) p = p.previousElementSibling; return p ? p.textContent : ''; }");
        return new Element(caption, box?.Width ?? 0, box?.Height ?? 0, (box?.X ?? 0) + (box?.Width ?? 0), content, box is not null);
    }

    /// <param name="Hidden">A table's width beyond what it shows (it scrolls); a chart's texts drawn past its frame.</param>
    /// <param name="Text">A chart's title.</param>
    public sealed record Element(string Caption, double Width, double Height, double Right, int Rows, bool Shown, int Hidden = 0, string Text = "")
    {
        public int Marks => Rows;
    }

    public sealed record Inspection(IReadOnlyList<Element> Tables, IReadOnlyList<Element> Charts, int ScrollWidth, IReadOnlyList<string> Errors);
}
