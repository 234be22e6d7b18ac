using System.Collections.Concurrent;
using Grpc.Health.V1;
using Grpc.Net.Client;

namespace ProtocolBench.Integration.Tests.Infrastructure;

/// <summary>One create: when it was sent, when it ended, and what came back (an id, or an error code).</summary>
public sealed record WriteAttempt(Protocol Protocol, string Name, DateTime Sent, DateTime Ended, int? Id, string? Code, string? Status)
{
    public bool Acknowledged => Id is not null;
}

/// <summary>
/// Writers creating authors on every protocol until stopped, recording each attempt, so a fault test can check
/// what was acknowledged against what the database holds afterwards, and how soon writes succeed again.
/// </summary>
public sealed class WriteLoad : IAsyncDisposable
{
    private readonly ConcurrentQueue<WriteAttempt> _attempts = new();
    private readonly CancellationTokenSource _stop = new();
    private readonly List<IProtocolClient> _clients = [];
    private readonly Task _writers;

    /// <param name="kind">The start of <see cref="Marker"/>, which a random tail makes the load's own.</param>
    public WriteLoad(ServiceAddresses addresses, string kind, int writersPerProtocol = 3)
    {
        Marker = $"{kind}-{Guid.NewGuid():N}"[..12];
        var options = new ClientOptions { Addresses = addresses, CallTimeout = TimeSpan.FromSeconds(20) };
        var writers = new List<Task>();
        foreach (var protocol in Protocols)
        {
            var client = ProtocolClients.Create(protocol, Transport.Http, options);
            _clients.Add(client);
            writers.AddRange(Enumerable.Range(0, writersPerProtocol).Select(w => Task.Run(() => WriteAsync(client, protocol, w))));
        }

        _writers = Task.WhenAll(writers);
    }

    public static IReadOnlyList<Protocol> Protocols { get; } = Display.Protocols;

    /// <summary>
    /// Starts a load and returns it once every protocol has acknowledged a create (<see cref="WaitForRecoveryAsync"/> from
    /// the start: at most 20 s, after which the test's own checks name a protocol that never wrote) and the writers have
    /// had 1.5 s more, so a fault meets a load in its stride, not its first calls.
    /// </summary>
    public static async Task<WriteLoad> StartedAsync(ServiceAddresses addresses, string kind, CancellationToken cancellationToken)
    {
        var load = new WriteLoad(addresses, kind);
        try
        {
            await load.WaitForRecoveryAsync(DateTime.MinValue, cancellationToken);
            await Task.Delay(1500, cancellationToken);
            return load;
        }
        catch
        {
            await load.DisposeAsync();
            throw;
        }
    }

    /// <summary>What every name this load writes starts with (12 characters).</summary>
    public string Marker { get; }

    public IReadOnlyList<WriteAttempt> Attempts => [.. _attempts];

    public async Task StopAsync()
    {
        await _stop.CancelAsync();
        await _writers;
    }

    public async ValueTask DisposeAsync()
    {
        await StopAsync();
        foreach (var client in _clients)
        {
            await client.DisposeAsync();
        }

        _stop.Dispose();
    }

    /// <summary>Every failure must be the database's UNAVAILABLE: never 500, UNKNOWN or INTERNAL.</summary>
    public void AssertFailuresAreUnavailable()
    {
        var wrong = Attempts.Where(a => !a.Acknowledged && a.Code != "UNAVAILABLE")
            .Select(a => $"{a.Protocol} {a.Name}: {a.Code} ({a.Status})").ToList();
        Assert.True(wrong.Count == 0, $"{wrong.Count} failures were not UNAVAILABLE: {string.Join("; ", wrong.Take(10))}");
    }

    /// <summary>The creates sent at or after <paramref name="from"/> and answered before <paramref name="to"/>: those the fault met whole.</summary>
    public IReadOnlyList<WriteAttempt> During(DateTime from, DateTime to) => [.. Attempts.Where(a => a.Sent >= from && a.Ended < to)];

    /// <summary>None of the creates the fault met was acknowledged, and every failure of the run was UNAVAILABLE.</summary>
    public void AssertNoneAcknowledged(IReadOnlyList<WriteAttempt> during)
    {
        AssertFailuresAreUnavailable();
        Assert.DoesNotContain(during, a => a.Acknowledged);
    }

    /// <summary>Seconds from <paramref name="after"/> to the end of the first acknowledged create sent after it, per protocol.</summary>
    public IReadOnlyDictionary<Protocol, double> RecoverySeconds(DateTime after) => Protocols.ToDictionary(
        p => p,
        p => Attempts.Where(a => a.Protocol == p && a.Acknowledged && a.Sent >= after).Select(a => (a.Ended - after).TotalSeconds)
            .DefaultIfEmpty(double.PositiveInfinity).Min());

    /// <summary>Waits until every protocol has acknowledged a create sent after <paramref name="after"/> (at most 20 s).</summary>
    public async Task WaitForRecoveryAsync(DateTime after, CancellationToken cancellationToken)
    {
        var deadline = DateTime.UtcNow.AddSeconds(20);
        while (RecoverySeconds(after).Values.Any(double.IsInfinity) && DateTime.UtcNow < deadline)
        {
            await Task.Delay(100, cancellationToken);
        }
    }

    /// <summary>
    /// After a fault's end: waits until every protocol writes again and the services say they are healthy (within
    /// <paramref name="goalSeconds"/>), lets the writers run for <paramref name="settle"/> more, then stops them.
    /// Returns the seconds the services took to say they are healthy.
    /// </summary>
    public async Task<double> StopAfterRecoveryAsync(DateTime faultEnded, HealthProbes health, double goalSeconds, TimeSpan settle, CancellationToken cancellationToken)
    {
        await WaitForRecoveryAsync(faultEnded, cancellationToken);
        var healthyAfter = await health.WaitAsync(healthy: true, within: goalSeconds, cancellationToken);
        await Task.Delay(settle, cancellationToken);
        await StopAsync();
        return healthyAfter;
    }

    /// <summary>The acknowledged creates chosen are all in the database, each under its id with its name.</summary>
    public async Task AssertStoredAsync(DatabaseOptions database, Func<WriteAttempt, bool> mustBeStored, CancellationToken cancellationToken)
    {
        var required = Attempts.Where(a => a.Acknowledged && mustBeStored(a)).ToList();
        var builder = new DbContextOptionsBuilder<LibraryDbContext>();
        database.Configure(builder);
        await using var db = new LibraryDbContext(builder.Options);
        var stored = await db.Authors.Where(a => a.Name.StartsWith(Marker)).ToDictionaryAsync(a => a.Id, a => a.Name, cancellationToken);
        var lost = required.Where(a => !stored.TryGetValue(a.Id!.Value, out var name) || name != a.Name).ToList();
        Assert.True(lost.Count == 0, $"{lost.Count} of {required.Count} acknowledged creates are not stored: {string.Join("; ", lost.Take(10).Select(a => $"{a.Protocol} {a.Id} {a.Name}"))}");
    }

    /// <summary>Every protocol acknowledged a create within <paramref name="seconds"/> of the fault's end.</summary>
    public void AssertRecovered(DateTime faultEnded, double seconds)
    {
        foreach (var (protocol, first) in RecoverySeconds(faultEnded))
        {
            Assert.True(first <= seconds, $"{protocol} acknowledged no create within {seconds} s of the fault's end (first after {first:F1} s).");
        }
    }

    /// <summary>The test's figures in its output: what happened, the counts, and how soon each protocol wrote again.</summary>
    public void Report(DateTime faultEnded, string what)
    {
        var recovery = string.Join(", ", RecoverySeconds(faultEnded).Select(r => $"{r.Key} {r.Value:F2} s"));
        TestContext.Current.TestOutputHelper?.WriteLine($"{what}. {Summary()}. First acknowledged create after the fault: {recovery}.");
    }

    public string Summary() => string.Join(", ", Protocols.Select(p =>
    {
        var mine = Attempts.Where(a => a.Protocol == p).ToList();
        return $"{p}: {mine.Count(a => a.Acknowledged)} acknowledged, {mine.Count(a => !a.Acknowledged)} UNAVAILABLE";
    }));

    private async Task WriteAsync(IProtocolClient client, Protocol protocol, int writer)
    {
        for (var n = 0; !_stop.IsCancellationRequested; n++)
        {
            var name = $"{Marker}-{protocol}-{writer}-{n}";
            var sent = DateTime.UtcNow;
            try
            {
                var author = await client.CreateAuthorAsync(name, "Faults", CancellationToken.None);
                _attempts.Enqueue(new WriteAttempt(protocol, name, sent, DateTime.UtcNow, author.Id, null, null));
            }
            catch (ProtocolClientException e)
            {
                _attempts.Enqueue(new WriteAttempt(protocol, name, sent, DateTime.UtcNow, null, e.Code, e.ProtocolStatus));
                await Task.Delay(20, CancellationToken.None);
            }
        }
    }
}

/// <summary>/healthz on REST, GraphQL and SignalR, grpc.health.v1 on gRPC: the four services' own view of the database.</summary>
public sealed class HealthProbes(ServiceAddresses addresses) : IDisposable
{
    private readonly HttpClient _http = new() { Timeout = TimeSpan.FromSeconds(10) };
    private readonly GrpcChannel _grpc = GrpcChannel.ForAddress(addresses.BaseUri(Protocol.Grpc, Transport.Http));

    public async Task<bool> AllAsync(bool healthy, CancellationToken cancellationToken)
    {
        var rest = await _http.GetAsync($"http://127.0.0.1:{addresses.RestHttp}/healthz", cancellationToken);
        var graphQL = await _http.GetAsync($"http://127.0.0.1:{addresses.GraphQLHttp}/healthz", cancellationToken);
        var signalR = await _http.GetAsync($"http://127.0.0.1:{addresses.SignalRHttp}/healthz", cancellationToken);
        var grpc = await new Health.HealthClient(_grpc).CheckAsync(
            new HealthCheckRequest(), deadline: DateTime.UtcNow.AddSeconds(10), cancellationToken: cancellationToken);
        var expected = healthy ? HttpStatusCode.OK : HttpStatusCode.ServiceUnavailable;
        return rest.StatusCode == expected && graphQL.StatusCode == expected && signalR.StatusCode == expected
            && grpc.Status == (healthy ? HealthCheckResponse.Types.ServingStatus.Serving : HealthCheckResponse.Types.ServingStatus.NotServing);
    }

    /// <summary>Seconds until all four report <paramref name="healthy"/>; fails after <paramref name="within"/> seconds.</summary>
    public async Task<double> WaitAsync(bool healthy, double within, CancellationToken cancellationToken)
    {
        var watch = System.Diagnostics.Stopwatch.StartNew();
        while (!await AllAsync(healthy, cancellationToken))
        {
            Assert.True(watch.Elapsed.TotalSeconds < within, $"The services did not all report {(healthy ? "healthy" : "unhealthy")} within {within} s.");
            await Task.Delay(100, cancellationToken);
        }

        return watch.Elapsed.TotalSeconds;
    }

    public void Dispose()
    {
        _http.Dispose();
        _grpc.Dispose();
    }
}
