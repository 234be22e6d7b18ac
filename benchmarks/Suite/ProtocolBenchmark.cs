using BenchmarkDotNet.Attributes;
using ProtocolBench.Lab;
using ProtocolBench.Lab.Scenarios;
using ProtocolBench.Shared.Clients;

namespace ProtocolBench.Benchmarks.Suite;

/// <summary>
/// One scenario of the catalogue per case, called through <see cref="Operations"/> and every response checked cheaply
/// before it counts; the full verification runs once per cell in GlobalSetup, and what a create wrote is deleted in
/// GlobalCleanup. Over a protocol (<see cref="ProtocolBenchmark"/>) or in process (<see cref="InProcess"/>).
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
        Scenario.CallAsync(Operations, Scenario.Creates ? Catalogue.CreatedName : "", _created, CancellationToken.None);

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

/// <summary>
/// One scenario on one protocol over one transport per case. Set-up connects, then measures the bytes on the wire of
/// the call about to be timed (after warming the connection, so TCP, TLS and HTTP/2 set-up are not in it).
/// A class per scenario group keeps BenchmarkDotNet's reports in sets (Baseline, Payloads, Files, BinaryFiles, Authors).
/// </summary>
public abstract class ProtocolBenchmark : ScenarioBenchmark
{
    private const int WireWarmups = 2;

    [ParamsSource(nameof(Protocols))]
    public Protocol Protocol { get; set; }

    [ParamsAllValues]
    public Transport Transport { get; set; }

    public override IEnumerable<Scenario> Scenarios => Catalogue.In(Group);

    /// <summary>Every protocol; a scenario that exists only on some is filtered per case (BenchConfig).</summary>
    public IEnumerable<Protocol> Protocols => Display.Protocols;

    protected abstract ScenarioGroup Group { get; }

    protected IProtocolClient Client { get; private set; } = null!;

    protected override ILibraryOperations Operations => Client;

    protected override string CellName => $"{Scenario.Name}.{Protocol}.{Transport}";

    protected virtual WireCounter Wire => Client.Wire;

    /// <summary>Serial operations averaged for the wire bytes; bytes per operation are nearly constant, so a few suffice.</summary>
    protected virtual int WireSamples => Scenario.Group is ScenarioGroup.Files or ScenarioGroup.BinaryFiles ? 3 : 5;

    protected override string? NotMeasured => Run.Problem(Protocol);

    protected override Task ConnectAsync()
    {
        Client = ProtocolClients.Create(Protocol, Transport, Run.ClientOptions);
        return Task.CompletedTask;
    }

    protected override async Task PrepareAsync()
    {
        var fresh = Wire.Total == 0;
        await Call();
        var first = Wire.Total;
        for (var i = 1; i < WireWarmups; i++)
        {
            await Call();
        }

        Wire.Reset();
        for (var i = 0; i < WireSamples; i++)
        {
            await Call();
        }

        var (sent, received) = Wire.Snapshot();
        var perOp = (double)(sent + received) / WireSamples;
        Run.Wire.Record(
            Scenario, Protocol, Transport,
            new WireSample((double)sent / WireSamples, (double)received / WireSamples, WireSamples, fresh ? (long)Math.Round(first - perOp) : null));
    }
}

/// <summary>Bolanowski et al. scenarios I–V with the paper's arguments: no database behind them.</summary>
public class Payloads : ProtocolBenchmark
{
    protected override ScenarioGroup Group => ScenarioGroup.Payloads;
}

/// <summary>Scenarios VI and VII as in the paper: REST and GraphQL send the file as base64 in JSON, gRPC as a bytes field.</summary>
public class Files : ProtocolBenchmark
{
    protected override ScenarioGroup Group => ScenarioGroup.Files;
}

/// <summary>The files in each protocol's native binary form, beyond the paper: REST's raw endpoints and gRPC's StreamPdf.</summary>
public class BinaryFiles : ProtocolBenchmark
{
    protected override ScenarioGroup Group => ScenarioGroup.BinaryFiles;
}

/// <summary>The Śliwa &amp; Pańczyk domain: three searches, get one, list 100, create (deleted again after each cell).</summary>
public class Authors : ProtocolBenchmark
{
    protected override ScenarioGroup Group => ScenarioGroup.Authors;
}
