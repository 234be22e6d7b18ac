using System.Collections.Concurrent;
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
    public InProcessOperations Domain => _domain ??= new InProcessOperations(Database);

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
