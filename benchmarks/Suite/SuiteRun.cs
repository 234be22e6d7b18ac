using System.Collections.Concurrent;
using BenchmarkDotNet.Running;
using ProtocolBench.Lab.Scenarios;
using ProtocolBench.Shared.Clients;
using ProtocolBench.Shared.Domain.Data;

namespace ProtocolBench.Benchmarks.Suite;

/// <summary>
/// What the command hands the benchmark classes for one run, and what they hand back (bytes on the wire). BenchmarkDotNet
/// creates the class instances itself, so this one object is reached through <see cref="Current"/>: the suite runs
/// in-process (see BenchConfig), in this very process.
/// </summary>
/// <param name="interrupted">Why the run is stopping (Ctrl+C, SIGTERM), or null.</param>
/// <param name="serviceProblem">Why the service of a protocol cannot be measured (it died), or null.</param>
public sealed class SuiteRun(ClientOptions clientOptions, DatabaseOptions? database, Func<string?> interrupted, Func<Protocol, string?> serviceProblem)
{
    private readonly ConcurrentDictionary<string, bool> _verified = new();
    private InProcessOperations? _domain;

    public static SuiteRun Current { get; set; } =
        new(new ClientOptions(), null, () => "the suite runs only from the benchmark command", _ => null);

    public ClientOptions ClientOptions { get; } = clientOptions;

    /// <summary>The services' database, for the in-process domain floor; null when it is not known (--external).</summary>
    public DatabaseOptions? Database { get; } = database;

    /// <summary>The operations in this process on the services' database: the domain floor, and the creates' clean-up.</summary>
    public InProcessOperations Domain => _domain ??= new InProcessOperations(Database, Catalogue.Files);

    public string? Interrupted => interrupted();

    /// <summary>Why a protocol cannot be measured (the run was interrupted, or its service died), or null.</summary>
    public string? Problem(Protocol protocol) => interrupted() ?? serviceProblem(protocol);

    public WireTally Wire { get; } = new();

    /// <summary>The full verification of a cell runs once per run, not once per round.</summary>
    public bool FirstVerification(string cell) => _verified.TryAdd(cell, true);

    /// <summary>
    /// Deletes what creates wrote: in one statement when the database is known, otherwise through the protocol's client
    /// four at a time (--external alone), so that clean-up is never the longest phase of a cell.
    /// </summary>
    public async Task DeleteCreatedAsync(ILibraryOperations client, IReadOnlyList<int> ids)
    {
        if (ids.Count == 0)
        {
            return;
        }

        if (Database is not null)
        {
            await Domain.DeleteAuthorsAsync(ids);
            return;
        }

        await Parallel.ForEachAsync(ids, new ParallelOptions { MaxDegreeOfParallelism = 4 }, async (id, ct) => await client.DeleteAuthorAsync(id, ct));
    }
}

/// <summary>Bytes on the wire per operation, measured in each cell's GlobalSetup and read by the report columns.</summary>
public sealed class WireTally
{
    private readonly ConcurrentDictionary<(Scenario, Protocol, Transport), WireSample> _samples = new();

    public void Record(Scenario scenario, Protocol protocol, Transport transport, WireSample sample) => _samples[(scenario, protocol, transport)] = sample;

    public WireSample? Find(Scenario scenario, Protocol protocol, Transport transport) =>
        _samples.TryGetValue((scenario, protocol, transport), out var sample) ? sample : null;

    public WireSample? Find(BenchmarkCase benchmarkCase) =>
        Cell.IsInProcess(benchmarkCase) ? null : Find(Cell.ScenarioOf(benchmarkCase), Cell.ProtocolOf(benchmarkCase), Cell.TransportOf(benchmarkCase));
}

/// <param name="SentPerOp">Request bytes per operation at the socket (TLS records on HTTPS).</param>
/// <param name="ReceivedPerOp">Response bytes per operation at the socket.</param>
/// <param name="Operations">How many serial operations the averages come from.</param>
/// <param name="ConnectionSetup">Bytes of opening the connection (TCP payload: TLS handshake, HTTP/2 preface and settings), when seen.</param>
public sealed record WireSample(double SentPerOp, double ReceivedPerOp, int Operations, long? ConnectionSetup)
{
    public double TotalPerOp => SentPerOp + ReceivedPerOp;
}

/// <summary>A BenchmarkDotNet case's parameters: the scenario, the protocol and the transport of one cell (the scenario alone in process).</summary>
public static class Cell
{
    public static Scenario ScenarioOf(BenchmarkCase benchmarkCase) => (Scenario)benchmarkCase.Parameters[nameof(ProtocolBenchmark.Scenario)];

    public static Protocol ProtocolOf(BenchmarkCase benchmarkCase) => (Protocol)benchmarkCase.Parameters[nameof(ProtocolBenchmark.Protocol)];

    public static Transport TransportOf(BenchmarkCase benchmarkCase) => (Transport)benchmarkCase.Parameters[nameof(ProtocolBenchmark.Transport)];

    /// <summary>A case of the domain floor: no protocol, no transport.</summary>
    public static bool IsInProcess(BenchmarkCase benchmarkCase) => benchmarkCase.Descriptor.Type == typeof(InProcess);

    /// <summary>The same cell in every round, whatever its job: class and parameters.</summary>
    public static string Id(BenchmarkCase benchmarkCase) => $"{benchmarkCase.Descriptor.Type.Name} [{benchmarkCase.Parameters.DisplayInfo}]";
}
