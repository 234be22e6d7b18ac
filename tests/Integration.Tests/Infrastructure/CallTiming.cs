namespace ProtocolBench.Integration.Tests.Infrastructure;

public static class CallTiming
{
    /// <summary>The median of five timed calls, after one untimed.</summary>
    public static async Task<double> MedianSecondsAsync(Func<Task> call)
    {
        await call();
        var seconds = new List<double>();
        for (var i = 0; i < 5; i++)
        {
            var stopwatch = Stopwatch.StartNew();
            await call();
            seconds.Add(stopwatch.Elapsed.TotalSeconds);
        }

        return seconds.Order().ElementAt(2);
    }
}
