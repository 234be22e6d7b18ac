using System.Text.RegularExpressions;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.ConsoleArguments;
using BenchmarkDotNet.Jobs;

namespace ProtocolBench.Benchmarks.Cli;

/// <summary>
/// The arguments this command passes on to BenchmarkDotNet (filters, job options, exporters), parsed once by its own
/// parser against the suite's job, before any service starts: the selection and every round's configuration come from
/// the one result, and a typo ends the command with BenchmarkDotNet's complaint in one line.
/// </summary>
public sealed partial class BenchmarkDotNetArguments
{
    private readonly IConfig _parsed;

    private BenchmarkDotNetArguments(IConfig parsed) => _parsed = parsed;

    /// <param name="options">The command's options; without a filter of their own every benchmark is selected.</param>
    /// <param name="suite">A configuration holding the suite's job (<see cref="Config.SuiteJob.Of"/>), which the job options change.</param>
    public static (BenchmarkDotNetArguments? Arguments, string? Problem) Parse(BenchOptions options, IConfig suite)
    {
        var log = new AccumulationLogger();
        // Without a filter of the user's: a preset's scenarios (--as), or everything.
        string[] args = options.HasFilter ? [.. options.BenchmarkDotNetArgs]
            : [.. options.BenchmarkDotNetArgs, "--filter", .. options.Common.Preset?.BenchmarkFilters ?? ["*"]];
        var (parsed, config, _) = ConfigParser.Parse(args, log, suite);
        return parsed && config is not null ? (new(config), null) : (null, Problem(options.BenchmarkDotNetArgs, log.GetLog()));
    }

    /// <summary>A round's configuration with the arguments applied.</summary>
    public IConfig Apply(IConfig round) => ManualConfig.Union(round, _parsed);

    /// <summary>The job the rounds run: the suite's (in <paramref name="round"/>) with the job options (--iterationCount, ...) applied.</summary>
    public Job JobOf(IConfig round) => ImmutableConfigBuilder.Create(Apply(round)).GetJobs().First();

    /// <summary>The cells BenchmarkDotNet will run: its filters and the suite's.</summary>
    public List<BenchmarkCase> Select(IEnumerable<Type> types, IConfig round)
    {
        var config = Apply(round);
        return [.. types.SelectMany(type => BenchmarkConverter.TypeToBenchmarks(type, config).BenchmarksCases)];
    }

    /// <summary>Its parser prints a banner, "ERROR(S):", one indented line per error, then 100 lines of usage; or one line.</summary>
    private static string Problem(IReadOnlyList<string> args, string log)
    {
        var lines = log.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        var errors = lines.SkipWhile(l => l != "ERROR(S):").Skip(1).TakeWhile(l => l != "USAGE:").ToList();
        var first = errors.Count > 0 ? errors[0] : lines.FirstOrDefault() ?? "its arguments were not understood.";
        if (UnknownOption().Match(first) is { Success: true } unknown)
        {
            var token = args.FirstOrDefault(a => a.TrimStart('-').Split('=')[0].Equals(unknown.Groups["name"].Value, StringComparison.OrdinalIgnoreCase));
            return $"Unknown option '{token ?? unknown.Groups["name"].Value}': neither this command nor BenchmarkDotNet knows it.";
        }

        return $"BenchmarkDotNet: {first}";
    }

    [GeneratedRegex("^Option '(?<name>[^']+)' is unknown")]
    private static partial Regex UnknownOption();
}
