using BenchmarkDotNet.Attributes;

namespace ProtocolBench.Benchmarks.Suite;

/// <summary>
/// One scenario on one protocol over one transport per case. Set-up connects, then measures the bytes on the wire of
/// the call about to be timed (after warming the connection, so that on reused connections TCP, TLS and HTTP/2 set-up
/// are not in it; with --connections new every call has its own).
/// A class per scenario group keeps BenchmarkDotNet's reports in sets (Floor, Payloads, Files, BinaryFiles, Authors).
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
        for (var i = 0; i < WireWarmups; i++)
        {
            await Call();
        }

        Wire.Reset();
        for (var i = 0; i < WireSamples; i++)
        {
            await Call();
        }

        var (sent, received) = Wire.Snapshot();
        Run.Wire.Record(Scenario, Protocol, Transport, new WireSample((double)sent / WireSamples, (double)received / WireSamples, WireSamples));
    }
}
