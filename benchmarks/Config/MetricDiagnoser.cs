using BenchmarkDotNet.Analysers;
using BenchmarkDotNet.Diagnosers;
using BenchmarkDotNet.Engines;
using BenchmarkDotNet.Exporters;
using BenchmarkDotNet.Validators;

namespace ProtocolBench.Benchmarks.Config;

/// <summary>
/// A diagnoser whose only output is metrics in each cell's report (<see cref="ServerCostDiagnoser"/>,
/// <see cref="WireBytesDiagnoser"/>): BenchmarkDotNet's diagnoser with nothing to export, analyse, display or validate.
/// </summary>
public abstract class MetricDiagnoser : IDiagnoser
{
    public abstract IEnumerable<string> Ids { get; }

    public IEnumerable<IExporter> Exporters => [];

    public IEnumerable<IAnalyser> Analysers => [];

    public abstract RunMode GetRunMode(BenchmarkCase benchmarkCase);

    public virtual void Handle(HostSignal signal, DiagnoserActionParameters parameters)
    {
    }

    public abstract IEnumerable<Metric> ProcessResults(DiagnoserResults results);

    public void DisplayResults(ILogger logger)
    {
    }

    public IEnumerable<ValidationError> Validate(ValidationParameters validationParameters) => [];
}
