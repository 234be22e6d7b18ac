using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Diagnosers;
using BenchmarkDotNet.Exporters;
using BenchmarkDotNet.Exporters.Csv;
using BenchmarkDotNet.Exporters.Json;
using BenchmarkDotNet.Filters;
using BenchmarkDotNet.Order;
using BenchmarkDotNet.Validators;
using Perfolizer.Horology;

namespace ProtocolBench.Benchmarks.Config;

/// <summary>The one configuration of the suite: its job (<see cref="SuiteJob"/>), columns, diagnosers, exporters.</summary>
public static class BenchConfig
{
    /// <param name="allocations">
    /// Measure the client's allocations (MemoryDiagnoser). It costs one more iteration per cell; allocations per operation
    /// do not change from round to round, so the command asks for them in the first round only.
    /// </param>
    /// <param name="cost">Reads the services' cost per operation (server CPU and allocations, client CPU); null: not measured.</param>
    /// <param name="wire">Puts each cell's bytes on the wire in its report.</param>
    public static IConfig Create(
        JobKind job, bool verbose, string resultsDirectory, long? affinity, IOrderer orderer, ProgressReporter progress, WireBytesDiagnoser wire,
        bool allocations = true, ServerCostDiagnoser? cost = null)
    {
        var config = ManualConfig.CreateEmpty()
            .AddJob(SuiteJob.Of(job, affinity))
            .AddColumnProvider(DefaultColumnProviders.Descriptor, DefaultColumnProviders.Params, DefaultColumnProviders.Metrics)
            .AddColumn(
                StatisticColumn.Median,
                StatisticColumn.Mean,
                StatisticColumn.P95,
                StatisticColumn.StdDev,
                StatisticColumn.Iterations,
                RatioToRestHttpColumn.Instance)
            .AddExporter(HtmlExporter.Default, MarkdownExporter.GitHub, CsvExporter.Default, JsonExporter.Full)
            .AddValidator(JitOptimizationsValidator.FailOnError, BaselineValidator.FailOnError, SetupCleanupValidator.FailOnError,
                ParamsValidator.FailOnError, DeferredExecutionValidator.FailOnError)
            .AddLogicalGroupRules(BenchmarkLogicalGroupRule.ByMethod)
            .WithOrderer(orderer)
            .WithSummaryStyle(SummaryStyle.Default.WithTimeUnit(TimeUnit.Microsecond).WithMaxParameterColumnWidth(20))
            // A scenario that exists on some protocols only (the binary files) has no case on the others.
            .AddFilter(new SimpleFilter(c => !Cell.HasProtocol(c) || Cell.ScenarioOf(c).AppliesTo(Cell.ProtocolOf(c))))
            // Services started elsewhere (--external) announce no loopback sender.
            .AddFilter(new SimpleFilter(c => !Cell.IsLoopbackTransfer(c) || LoopbackTransfer.IsAvailable))
            .AddEventProcessor(progress)
            .WithArtifactsPath(resultsDirectory);
        config.AddDiagnoser(wire);
        if (allocations)
        {
            config.AddDiagnoser(new MemoryDiagnoser(new MemoryDiagnoserConfig(displayGenColumns: false)));
        }

        if (cost is not null)
        {
            config.AddDiagnoser(cost);
        }

        config.AddLogger(verbose ? ConsoleLogger.Default : new ErrorsOnlyConsoleLogger(() => progress.Interrupted));
        return config;
    }

    /// <summary>How long each selected cell is called to warm freshly started services up (ServiceWarmup).</summary>
    public static readonly TimeSpan WarmupPerCell = TimeSpan.FromMilliseconds(100);
}
