namespace ProtocolBench.Benchmarks.Suite;

/// <summary>
/// The loopback transfer: each binary file's bytes from the REST service's loopback sender over a plain TCP socket, on a
/// warm connection (<see cref="LoopbackTransferClient"/>), measured in the same rounds as the cells (a class of its own,
/// shuffled among the others like the domain floor), so that the report can hold the binary files' cells against
/// moving the same bytes with no protocol at all, round by round. Only where this run started the services: services
/// started elsewhere (--external) announce no sender.
/// </summary>
public class LoopbackTransfer : ScenarioBenchmark
{
    private LoopbackTransferClient? _client;

    public override IEnumerable<Scenario> Scenarios => Catalogue.In(ScenarioGroup.BinaryFiles);

    /// <summary>Whether this run can measure the transfer: the REST service it started announced its sender (BenchConfig filters the cases otherwise).</summary>
    public static bool IsAvailable => Run.ClientOptions.Addresses.SenderPort is not null;

    protected override ILibraryOperations Operations => _client ?? throw new InvalidOperationException("Not connected.");

    protected override string CellName => $"{Scenario.Name}.loopback";

    protected override string? NotMeasured => Run.Problem(Protocol.Rest);

    /// <summary>The client of the REST service's loopback sender at these options' addresses.</summary>
    public static LoopbackTransferClient Client(ClientOptions options) =>
        new(options.Addresses.Host, options.Addresses.SenderPort ?? throw new InvalidOperationException("The REST service announced no loopback sender."), options.CallTimeout);

    protected override Task ConnectAsync()
    {
        _client = Client(Run.ClientOptions);
        return Task.CompletedTask;
    }
}
