using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Diagnosers;
using BenchmarkDotNet.Engines;
using BenchmarkDotNet.Exporters;
using BenchmarkDotNet.Exporters.Csv;
using BenchmarkDotNet.Exporters.Json;
using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Loggers;
using BenchmarkDotNet.Order;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Toolchains.InProcess.Emit;
using BenchmarkDotNet.Validators;
using Perfolizer.Horology;
using BenchmarkDotNet.Filters;
using ProtocolBench.Benchmarks.Cli;
using ProtocolBench.Benchmarks.Suite;

namespace ProtocolBench.Benchmarks.Config;

/// <summary>The one configuration of the suite: job, columns, exporters, toolchain.</summary>
public static class BenchConfig
{
    public static IConfig Create(BenchOptions options, string resultsDirectory, long? affinity, WireTally wire, IOrderer orderer, ProgressReporter progress)
    {
        var job = CreateJob(options.Job)
            // In-process: the services are separate processes started once by this program, which must own their
            // lifetime (stop on Ctrl+C, SIGTERM, failure) and share the wire-byte tallies with the report columns.
            // A child process per case (BenchmarkDotNet's default) would have neither, and would build a project per run.
            .WithToolchain(new InProcessEmitToolchain(TimeSpan.FromMinutes(15), logOutput: true))
            .AsDefault();
        if (affinity is { } mask)
        {
            job = job.WithAffinity((nint)mask);
        }

        var config = ManualConfig.CreateEmpty()
            .AddJob(job)
            .AddColumnProvider(DefaultColumnProviders.Descriptor, DefaultColumnProviders.Params, DefaultColumnProviders.Metrics)
            .AddColumn(
                StatisticColumn.Median,
                StatisticColumn.Mean,
                StatisticColumn.P95,
                StatisticColumn.StdDev,
                StatisticColumn.Iterations,
                RatioToRestHttpColumn.Instance,
                new WireBytesColumn(wire))
            .AddDiagnoser(new MemoryDiagnoser(new MemoryDiagnoserConfig(displayGenColumns: false)))
            .AddExporter(HtmlExporter.Default, MarkdownExporter.GitHub, CsvExporter.Default, JsonExporter.Full)
            .AddValidator(JitOptimizationsValidator.FailOnError, BaselineValidator.FailOnError, SetupCleanupValidator.FailOnError,
                ParamsValidator.FailOnError, DeferredExecutionValidator.FailOnError)
            .AddLogicalGroupRules(BenchmarkLogicalGroupRule.ByMethod)
            .WithOrderer(orderer)
            .WithSummaryStyle(SummaryStyle.Default.WithTimeUnit(TimeUnit.Microsecond).WithMaxParameterColumnWidth(20))
            // A scenario that exists on some protocols only (the binary files) has no case on the others.
            .AddFilter(new SimpleFilter(c => Cell.ScenarioOf(c).AppliesTo(Cell.ProtocolOf(c))))
            .AddEventProcessor(progress)
            .WithArtifactsPath(resultsDirectory);
        config.AddLogger(options.Verbose ? ConsoleLogger.Default : new ErrorsOnlyConsoleLogger());
        return config;
    }

    public static Job CreateJob(JobKind kind) => kind switch
    {
        // One round of the default run: short, because the run's verdicts come from the spread between rounds (each
        // round a fresh ordering and, by default, freshly started services), not from many iterations in one.
        // No overhead stage: the operations take 60 µs – 100 ms, the empty call's few nanoseconds do not matter.
        JobKind.Default => new Job("Round")
            .WithWarmupCount(2)
            .WithIterationCount(6)
            .WithIterationTime(TimeInterval.FromMilliseconds(120))
            .WithEvaluateOverhead(false)
            .WithUnrollFactor(1)
            .WithLaunchCount(1),
        JobKind.Short => new Job("ShortRound")
            .WithWarmupCount(1)
            .WithIterationCount(3)
            .WithIterationTime(TimeInterval.FromMilliseconds(100))
            .WithEvaluateOverhead(false)
            .WithUnrollFactor(1)
            .WithLaunchCount(1),
        JobKind.Medium => new Job("MediumRun", Job.MediumRun).WithUnrollFactor(1),
        JobKind.Long => new Job("LongRun", Job.LongRun).WithUnrollFactor(1),
        // Every cell once: one invocation, no pilot, no warm-up beyond the connection warm-up in GlobalSetup.
        _ => new Job("Smoke")
            .WithStrategy(RunStrategy.ColdStart)
            .WithLaunchCount(1)
            .WithWarmupCount(0)
            .WithIterationCount(1)
            .WithInvocationCount(1)
            .WithUnrollFactor(1),
    };

    /// <summary>How long each selected cell is called to warm freshly started services up (ServiceWarmup).</summary>
    public static TimeSpan WarmupPerCell(JobKind kind) => TimeSpan.FromMilliseconds(kind == JobKind.Short ? 100 : 250);

    /// <summary>How many rounds a job runs unless --rounds says otherwise.</summary>
    public static int DefaultRounds(JobKind kind) => kind switch
    {
        JobKind.Default => 5,
        JobKind.Smoke => 1,
        _ => 3,
    };

    public static string Describe(JobKind kind) => kind switch
    {
        JobKind.Default => "2 warm-up + 6 measured iterations of ~120 ms per cell",
        JobKind.Short => "1 warm-up + 3 measured iterations of ~100 ms per cell",
        JobKind.Medium => "BenchmarkDotNet's MediumRun preset (2 launches × 15 iterations) per cell",
        JobKind.Long => "BenchmarkDotNet's LongRun preset (3 launches × 100 iterations) per cell",
        _ => "every cell once (1 invocation, no statistics)",
    };
}
