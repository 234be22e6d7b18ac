using System.Collections.Concurrent;
using ProtocolBench.Shared.Domain.Data;

namespace ProtocolBench.Benchmarks.Suite;

/// <summary>
/// What the command hands the benchmark classes for one run, and what they hand back (bytes on the wire). BenchmarkDotNet
/// creates the class instances itself, so this one object is reached through <see cref="Current"/>: the suite runs
/// in-process (see BenchConfig), in this very process.
/// </summary>
/// <param name="created">How this run names the authors its creates write.</param>
/// <param name="interrupted">Why the run is stopping (Ctrl+C, SIGTERM), or null.</param>
/// <param name="serviceProblem">Why the service of a protocol cannot be measured (it died), or null.</param>
public sealed class SuiteRun(
    ClientOptions clientOptions, DatabaseOptions? database, CreatedAuthors created, Func<string?> interrupted, Func<Protocol, string?> serviceProblem)
{
    public const string Command = "bench";

    private readonly ConcurrentDictionary<string, bool> _verified = new();
    private InProcessOperations? _domain;

    private static readonly SuiteRun NotStarted =
        new(new ClientOptions(), null, new CreatedAuthors(Command, "none"), () => "the suite runs only from the benchmark command", _ => null);

    private static SuiteRun? _current;

    /// <summary>The process's run, set once by <see cref="Begin"/>; before it, one whose every cell says it is not measured.</summary>
    public static SuiteRun Current => _current ?? NotStarted;

    /// <summary>Makes <paramref name="run"/> the process's one run: the benchmark command's, before BenchmarkDotNet starts.</summary>
    public static void Begin(SuiteRun run)
    {
        if (Interlocked.CompareExchange(ref _current, run, null) is not null)
        {
            throw new InvalidOperationException("This process has begun its suite run already: the benchmark command runs one.");
        }
    }

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

    /// <summary>What one call of a scenario writes: the same name for every create of the run (the same bytes on every call), nothing for a read.</summary>
    public string Marker(Scenario scenario) => scenario.Creates ? created.Name("create") : "";

    /// <summary>Deletes what this run's creates wrote.</summary>
    public Task DeleteCreatedAsync(ILibraryOperations client) => DeleteNamedAsync(client, created.Prefix);

    /// <summary>Deletes what earlier runs of this command left when they were interrupted before their clean-up.</summary>
    public Task DeleteLeftoversAsync(ILibraryOperations client) => DeleteNamedAsync(client, CreatedAuthors.CommandPrefix(Command));

    /// <summary>In one statement when the database is known, otherwise through the client (see <see cref="CreatedAuthors.DeleteAsync"/>).</summary>
    private Task DeleteNamedAsync(ILibraryOperations client, string prefix) => CreatedAuthors.DeleteAsync(Database is null ? client : Domain, prefix);
}
