namespace ProtocolBench.Benchmarks.Suite;

/// <summary>
/// The domain floor: each scenario's shared operation in this process, without any protocol (InProcessOperations),
/// measured in the same rounds as the protocols, so that the report can split every cell into the work all protocols
/// share and the protocol's own overhead (cell − domain floor).
/// </summary>
public class DomainFloor : ScenarioBenchmark
{
    /// <summary>Every operation; the author operations only when the services' database is known (not with --external alone).</summary>
    public override IEnumerable<Scenario> Scenarios => Catalogue.All.Where(s => s.HasRequest && (!s.UsesDatabase || Run.Database is not null));

    protected override ILibraryOperations Operations => Run.Domain;

    protected override string CellName => $"{Scenario.Name}.in-process";

    protected override string? NotMeasured => Run.Interrupted;

    protected override Task ConnectAsync() => Task.CompletedTask;

    /// <summary>The run's one instance stays for the next cell.</summary>
    protected override ValueTask DisconnectAsync() => ValueTask.CompletedTask;
}
