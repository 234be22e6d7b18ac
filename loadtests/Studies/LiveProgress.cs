using Spectre.Console;

namespace ProtocolBench.LoadTests.Studies;

/// <summary>
/// The terminal view of a run: one bar for the whole study, one for the cell running now, and a line per finished
/// cell printed above them. Counters are polled four times a second, so the users never touch the display.
/// </summary>
public sealed class LiveProgress
{
    private readonly ProgressContext _context;
    private readonly ProgressTask _overall;
    private readonly ProgressTask _cell;
    private readonly Lock _gate = new();
    private long _doneBefore;
    private Func<long> _current = () => 0;

    private LiveProgress(ProgressContext context, long total)
    {
        _context = context;
        _overall = context.AddTask("[bold]study[/]", maxValue: Math.Max(total, 1));
        _cell = context.AddTask("starting", maxValue: 1);
    }

    public static async Task<T> RunAsync<T>(long totalRequests, Func<LiveProgress, Task<T>> body)
    {
        return await AnsiConsole.Progress()
            .AutoClear(true)
            .HideCompleted(false)
            .Columns(new TaskDescriptionColumn { Alignment = Justify.Left }, new ProgressBarColumn(), new PercentageColumn(),
                new ElapsedTimeColumn(), new SpinnerColumn())
            .StartAsync(async context =>
            {
                var view = new LiveProgress(context, totalRequests);
                using var stop = new CancellationTokenSource();
                var poll = view.PollAsync(stop.Token);
                try
                {
                    return await body(view);
                }
                finally
                {
                    await stop.CancelAsync();
                    await poll;
                }
            });
    }

    /// <summary>A new cell: its description, how many requests it will make, and where to read how many it has made.</summary>
    public void Begin(string description, long planned, Func<long> completed)
    {
        lock (_gate)
        {
            _cell.Description = description;
            _cell.MaxValue = Math.Max(planned, 1);
            _cell.Value = 0;
            _current = completed;
        }
    }

    public void End(long planned, string line)
    {
        lock (_gate)
        {
            _doneBefore += planned;
            _current = () => 0;
            _overall.Value = Math.Min(_doneBefore, _overall.MaxValue);
        }

        AnsiConsole.MarkupLine(line);
    }

    public static void Line(string markup) => AnsiConsole.MarkupLine(markup);

    private async Task PollAsync(CancellationToken stop)
    {
        using var timer = new PeriodicTimer(TimeSpan.FromMilliseconds(250));
        try
        {
            while (await timer.WaitForNextTickAsync(stop))
            {
                lock (_gate)
                {
                    var current = _current();
                    _cell.Value = Math.Min(current, _cell.MaxValue);
                    _overall.Value = Math.Min(_doneBefore + current, _overall.MaxValue);
                }

                _context.Refresh();
            }
        }
        catch (OperationCanceledException)
        {
        }
    }
}
