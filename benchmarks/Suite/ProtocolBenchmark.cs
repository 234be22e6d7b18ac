using BenchmarkDotNet.Attributes;
using ProtocolBench.Lab;
using ProtocolBench.Lab.Scenarios;
using ProtocolBench.Shared.Clients;

namespace ProtocolBench.Benchmarks.Suite;

/// <summary>
/// One scenario of the catalogue on one protocol over one transport per case. GlobalSetup connects, measures the bytes
/// on the wire of the call about to be timed (after warming the connection, so TCP, TLS and HTTP/2 set-up are not in
/// it) and verifies full responses once; the timed call then checks every response cheaply before returning it.
/// A class per scenario group keeps BenchmarkDotNet's reports in five sets (Baseline, Payloads, Files, BinaryFiles, Authors).
/// </summary>
public abstract class ProtocolBenchmark
{
    private const int WireWarmups = 2;

    private readonly List<int> _created = [];

    [ParamsSource(nameof(Scenarios))]
    public Scenario Scenario { get; set; } = null!;

    [ParamsSource(nameof(Protocols))]
    public Protocol Protocol { get; set; }

    [ParamsAllValues]
    public Transport Transport { get; set; }

    public IEnumerable<Scenario> Scenarios => Catalogue.In(Group);

    /// <summary>Every protocol; a scenario that exists only on some is filtered per case (BenchConfig).</summary>
    public IEnumerable<Protocol> Protocols => Display.Protocols;

    protected abstract ScenarioGroup Group { get; }

    protected static SuiteRun Run => SuiteRun.Current;

    protected IProtocolClient Client { get; private set; } = null!;

    protected virtual WireCounter Wire => Client.Wire;

    /// <summary>Serial operations averaged for the wire bytes; bytes per operation are nearly constant, so a few suffice.</summary>
    protected virtual int WireSamples => Scenario.Group is ScenarioGroup.Files or ScenarioGroup.BinaryFiles ? 3 : 5;

    [Benchmark]
    public async Task<object> Call()
    {
        var marker = Scenario.Creates ? Catalogue.CreatedName : "";
        var result = await CallAsync(marker);
        Scenario.Check(result, marker);
        if (Scenario.Creates)
        {
            _created.Add(((Shared.Domain.Authors.AuthorDto)result).Id);
        }

        return result;
    }

    [GlobalSetup]
    public async Task GlobalSetupAsync()
    {
        if (Run.Problem(Protocol) is { } problem)
        {
            throw new InvalidOperationException($"Not measured: {problem}");
        }

        await ConnectAsync();
        if (Scenario.Creates)
        {
            // Leftovers of an interrupted run.
            await DeleteAsync((await Client.SearchAuthorsAsync(Catalogue.CreatedName, 5000)).Select(a => a.Id).ToList());
        }

        await MeasureWireBytesAsync();
        if (Run.FirstVerification(Scenario, Protocol, Transport))
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

    protected virtual Task<object> CallAsync(string marker) =>
        Scenario.Call!(Client, marker, CancellationToken.None);

    protected virtual Task ConnectAsync()
    {
        Client = ProtocolClients.Create(Protocol, Transport, Run.ClientOptions);
        return Task.CompletedTask;
    }

    protected virtual ValueTask DisconnectAsync() => Client?.DisposeAsync() ?? ValueTask.CompletedTask;

    /// <summary>Full comparison of the response (hashes, every element), once per cell.</summary>
    protected virtual Task VerifyAsync() => Scenario.Verify?.Invoke(Client, CancellationToken.None) ?? Task.CompletedTask;

    private async Task DeleteAsync(IReadOnlyList<int> ids)
    {
        // Four at a time: thousands of creates must not make cleanup the longest phase.
        await Parallel.ForEachAsync(ids, new ParallelOptions { MaxDegreeOfParallelism = 4 }, async (id, ct) =>
            await Client.DeleteAuthorAsync(id, ct));
    }

    private async Task MeasureWireBytesAsync()
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
