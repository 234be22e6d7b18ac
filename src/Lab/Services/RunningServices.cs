namespace ProtocolBench.Lab.Services;

/// <summary>The services <see cref="ServiceLauncher"/> started, where they listen, and their stop (graceful, then killed).</summary>
public sealed class RunningServices : IAsyncDisposable
{
    private static readonly TimeSpan StopGrace = TimeSpan.FromSeconds(15);
    private readonly LaunchOptions _options;
    private int _stopped;

    internal RunningServices(LaunchOptions options, IReadOnlyList<ServiceProcess> processes)
    {
        Processes = processes;
        Addresses = processes.Aggregate(options.Addresses, (addresses, p) => addresses.WithPorts(p.Spec.Protocol, p.Ports!.Value.Http, p.Ports.Value.Https)) with
        {
            SenderPort = processes.FirstOrDefault(p => p.Spec.Protocol == Protocol.Rest)?.SenderPort,
        };
        _options = options;
    }

    public IReadOnlyList<ServiceProcess> Processes { get; }

    /// <summary>Where the services listen: the options' addresses with the ports each service reported it bound.</summary>
    public ServiceAddresses Addresses { get; }

    public async Task StopAsync()
    {
        if (Interlocked.Exchange(ref _stopped, 1) == 1)
        {
            return;
        }

        await Task.WhenAll(Processes.Select(p => p.StopAsync(StopGrace)));
        foreach (var process in Processes)
        {
            process.Dispose();
        }

        // Only the ports given: one the kernel chose may be handed to another process as soon as ours is closed.
        var busy = ServiceLauncher.ListeningPorts(_options).ToList();
        if (busy.Count > 0)
        {
            throw new LaunchException($"After stopping, something still listens on {string.Join(", ", busy)}.");
        }
    }

    public async ValueTask DisposeAsync() => await StopAsync();
}
