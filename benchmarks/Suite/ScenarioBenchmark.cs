using BenchmarkDotNet.Attributes;
using ProtocolBench.Lab.Scenarios;
using ProtocolBench.Shared.Clients;

namespace ProtocolBench.Benchmarks.Suite;

/// <summary>
/// One scenario of the catalogue per case, called through <see cref="Operations"/> and every response checked cheaply
/// before it counts; the full verification runs once per cell in GlobalSetup, and what a create wrote is deleted in
/// GlobalCleanup. Over a protocol (<see cref="ProtocolBenchmark"/>) or in process (<see cref="DomainFloor"/>).
/// </summary>
public abstract class ScenarioBenchmark
{
    private readonly List<int> _created = [];

    [ParamsSource(nameof(Scenarios))]
    public Scenario Scenario { get; set; } = null!;

    public abstract IEnumerable<Scenario> Scenarios { get; }

    protected static SuiteRun Run => SuiteRun.Current;

    protected abstract ILibraryOperations Operations { get; }

    /// <summary>Names the cell for the once-per-cell verification.</summary>
    protected abstract string CellName { get; }

    /// <summary>The scenario's one call (<see cref="Scenario.CallAsync"/>): request, created id recorded, response checked.</summary>
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
            // Leftovers of an interrupted run.
            await DeleteAsync((await Operations.SearchAuthorsAsync(Catalogue.CreatedName, 5000)).Select(a => a.Id).ToList());
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
            await DeleteAsync(_created);
            _created.Clear();
        }
        finally
        {
            await DisconnectAsync();
        }
    }

    protected virtual Task<object> CallAsync() =>
        Scenario.CallAsync(Operations, Catalogue.BenchmarkMarker(Scenario), _created, CancellationToken.None);

    /// <summary>Why this cell cannot be measured now (its service died, the run was interrupted), or null.</summary>
    protected abstract string? NotMeasured { get; }

    /// <summary>Opens what the calls need.</summary>
    protected abstract Task ConnectAsync();

    /// <summary>What runs after connecting and before the verification (the wire bytes).</summary>
    protected virtual Task PrepareAsync() => Task.CompletedTask;

    protected virtual ValueTask DisconnectAsync() => Operations?.DisposeAsync() ?? ValueTask.CompletedTask;

    /// <summary>Full comparison of the response (hashes, every element), once per cell.</summary>
    protected virtual Task VerifyAsync() => Scenario.Verify?.Invoke(Operations, CancellationToken.None) ?? Task.CompletedTask;

    private Task DeleteAsync(IReadOnlyList<int> ids) => Run.DeleteCreatedAsync(Operations, ids);
}
