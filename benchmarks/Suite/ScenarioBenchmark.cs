using BenchmarkDotNet.Attributes;

namespace ProtocolBench.Benchmarks.Suite;

/// <summary>
/// One scenario of the catalogue per case, called through <see cref="Operations"/> and every response checked cheaply
/// before it counts; the full verification runs once per cell in GlobalSetup, and what a create wrote is deleted in
/// GlobalCleanup. Over a protocol (<see cref="ProtocolBenchmark"/>) or in process (<see cref="DomainFloor"/>).
/// </summary>
public abstract class ScenarioBenchmark
{
    [ParamsSource(nameof(Scenarios))]
    public Scenario Scenario { get; set; } = null!;

    public abstract IEnumerable<Scenario> Scenarios { get; }

    protected static SuiteRun Run => SuiteRun.Current;

    protected abstract ILibraryOperations Operations { get; }

    /// <summary>Names the cell for the once-per-cell verification.</summary>
    protected abstract string CellName { get; }

    /// <summary>The scenario's one call (<see cref="Scenario.CallAsync"/>): request and response checked; what it creates is deleted by its name.</summary>
    [Benchmark]
    public Task<object> Call() => CallAsync();

    [GlobalSetup]
    public async Task GlobalSetupAsync()
    {
        if (NotMeasured is { } problem)
        {
            throw new InvalidOperationException($"Not measured: {problem}");
        }

        await ConnectAsync();
        if (Scenario.Creates)
        {
            await Run.DeleteLeftoversAsync(Operations);
        }

        await PrepareAsync();
        if (Run.FirstVerification(CellName))
        {
            await VerifyAsync();
        }
    }

    [GlobalCleanup]
    public async Task GlobalCleanupAsync()
    {
        try
        {
            if (Scenario.Creates)
            {
                await Run.DeleteCreatedAsync(Operations);
            }
        }
        finally
        {
            await DisconnectAsync();
        }
    }

    protected virtual Task<object> CallAsync() =>
        Scenario.CallAsync(Operations, Run.Marker(Scenario), CancellationToken.None);

    /// <summary>Why this cell cannot be measured now (its service died, the run was interrupted), or null.</summary>
    protected abstract string? NotMeasured { get; }

    /// <summary>Opens what the calls need.</summary>
    protected abstract Task ConnectAsync();

    /// <summary>What runs after connecting and before the verification (the wire bytes).</summary>
    protected virtual Task PrepareAsync() => Task.CompletedTask;

    protected virtual ValueTask DisconnectAsync() => Operations?.DisposeAsync() ?? ValueTask.CompletedTask;

    /// <summary>Full comparison of the response (hashes, every element), once per cell.</summary>
    protected virtual Task VerifyAsync() => Scenario.Verify?.Invoke(Operations, CancellationToken.None) ?? Task.CompletedTask;
}
