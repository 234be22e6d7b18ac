using System.IO.Compression;
using System.Text.RegularExpressions;
using ProtocolBench.Lab.Services;
using static ProtocolBench.Lab.Network.NetworkCommand;

namespace ProtocolBench.Lab.Network;

/// <summary>
/// The services' own network namespace, joined to this machine by a veth pair whose two ends are shaped by the kernel's
/// qdiscs (iproute2's ip and tc): htb for the rate; netem for delay, jitter and loss where the kernel has it, and
/// ProtocolBench's NFQUEUE delayer (<see cref="DelayerProcess"/>) where it has not. Traffic
/// goes only between the namespace and this machine (a /30 of two addresses, no route out). Everything is named after
/// this process (pb-PID, pbhPID, pbnPID): disposing removes it, and a run killed before it could is cleaned up by the
/// next one, which removes what belongs to processes that no longer exist.
/// </summary>
public sealed partial class ShapedLink : IAsyncDisposable
{
    private const string NamespacePrefix = "pb-";

    private readonly string _hostDevice;
    private readonly string _serviceDevice;
    private Action<string> _log = _ => { };
    private bool _disposed;

    private ShapedLink(NetworkProfile profile, int id)
    {
        Profile = profile;
        Namespace = NamespacePrefix + id.ToString(CultureInfo.InvariantCulture);
        _hostDevice = "pbh" + id.ToString(CultureInfo.InvariantCulture);
        _serviceDevice = "pbn" + id.ToString(CultureInfo.InvariantCulture);
        // A /30 of its own in 10.177.0.0/16 from the id's low 14 bits: runs at the same time get different ones.
        var subnet = (id & 0x3fff) * 4;
        HostAddress = $"10.177.{subnet >> 8}.{(subnet & 0xff) + 1}";
        ServiceAddress = $"10.177.{subnet >> 8}.{(subnet & 0xff) + 2}";
    }

    public NetworkProfile Profile { get; }

    /// <summary>The network namespace the services run in (ip netns exec NAME ...).</summary>
    public string Namespace { get; }

    /// <summary>The services' address, inside the namespace.</summary>
    public string ServiceAddress { get; }

    /// <summary>This machine's end of the link.</summary>
    public string HostAddress { get; }

    /// <summary>Whether netem applies the delay, jitter and loss; false when the kernel has no netem or none was asked.</summary>
    public bool Netem { get; private set; }

    /// <summary>The NFQUEUE delayer that applies the delay, jitter and loss where the kernel has no netem; null otherwise.</summary>
    public DelayerProcess? Delayer { get; private set; }

    /// <summary>What a report says about the link: what shapes the rate and what delays the packets.</summary>
    public string Describe() =>
        $"{Profile.Name}: {Profile.Describe()}; the services in network namespace {Namespace} behind a veth pair " +
        $"({HostAddress} ↔ {ServiceAddress}), {Shaping}";

    /// <summary><see cref="Describe"/> and, where the delayer delays the packets, what it did so far: how late it let them go.</summary>
    public async Task<string> DescribeMeasuredAsync() =>
        Describe() + (Delayer is null ? "" : $"; the delayer so far: {await Delayer.ReportAsync() ?? "no answer"}");

    private string Shaping =>
        (Profile.BitsPerSecond is { } rate ? $"each end's egress shaped by htb at {NetworkProfile.TcRate(rate)}" : "no rate shaped") +
        (Netem ? (Profile.BitsPerSecond is null ? "; each end's egress delayed by netem" : " with netem below it")
        : Delayer is { } delayer ? $"; the kernel has no netem, so delay, jitter and loss by ProtocolBench's NFQUEUE delayer (pid {delayer.Id}): " +
          "every packet held as it is received, each way, and let go in the order it came"
        : "");

    /// <summary>
    /// Why --network cannot work here (iproute2 missing, neither root nor CAP_NET_ADMIN), in one line; null when it can.
    /// Checked before anything starts, so the command refuses at once (exit 2).
    /// </summary>
    public static string? Unavailable(NetworkProfile? profile = null)
    {
        if (!OperatingSystem.IsLinux())
        {
            return "--network needs Linux (network namespaces, veth pairs and tc qdiscs): leave out --network.";
        }

        if (new[] { "ip", "tc" }.FirstOrDefault(tool => FindTool(tool) is null) is { } missing)
        {
            return $"--network needs iproute2's {missing}, which is not installed: apt-get install iproute2.";
        }

        // CAP_NET_ADMIN is bit 12 of the effective capabilities (root has it unless a container took it away).
        var capabilities = File.ReadLines("/proc/self/status").FirstOrDefault(l => l.StartsWith("CapEff:", StringComparison.Ordinal))?.Split(':')[1].Trim();
        var netAdmin = capabilities is not null && (ulong.Parse(capabilities, NumberStyles.HexNumber, CultureInfo.InvariantCulture) & (1UL << 12)) != 0;
        if (!netAdmin)
        {
            return "--network needs root or CAP_NET_ADMIN to make a network namespace and shape its link: run as root (sudo), or leave out --network.";
        }

        return profile is { DelaysOrLoses: true } && KernelHasNetem() == false && DelayerProcess.Unavailable() is { } why
            ? $"--network {profile.Name}: {why}"
            : null;
    }

    /// <summary>Whether the kernel was built with netem, as its /proc/config.gz says; null when it does not say.</summary>
    public static bool? KernelHasNetem()
    {
        try
        {
            using var config = new StreamReader(new GZipStream(File.OpenRead("/proc/config.gz"), CompressionMode.Decompress));
            while (config.ReadLine() is { } line)
            {
                if (line.StartsWith("CONFIG_NET_SCH_NETEM=", StringComparison.Ordinal))
                {
                    return true;
                }

                if (line.StartsWith("# CONFIG_NET_SCH_NETEM is not set", StringComparison.Ordinal))
                {
                    return false;
                }
            }

            return false;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or InvalidDataException)
        {
            return null;
        }
    }

    /// <summary>
    /// Makes the namespace and the shaped link for <paramref name="profile"/>, after removing what killed runs left.
    /// Throws <see cref="LaunchException"/> with the command that failed and what it said.
    /// </summary>
    public static async Task<ShapedLink> CreateAsync(NetworkProfile profile, Action<string> log, CancellationToken cancellationToken)
    {
        await RemoveLeftoversAsync(log, cancellationToken);
        var link = new ShapedLink(profile, Environment.ProcessId);
        await link.RemoveAsync(cancellationToken);
        var made = false;
        try
        {
            await RunAsync(["ip", "netns", "add", link.Namespace], cancellationToken);
            await RunAsync(["ip", "link", "add", link._hostDevice, "type", "veth", "peer", "name", link._serviceDevice, "netns", link.Namespace], cancellationToken);
            await RunAsync(["ip", "addr", "add", link.HostAddress + "/30", "dev", link._hostDevice], cancellationToken);
            await RunAsync(["ip", "link", "set", link._hostDevice, "up"], cancellationToken);
            await RunAsync(["ip", "-n", link.Namespace, "addr", "add", link.ServiceAddress + "/30", "dev", link._serviceDevice], cancellationToken);
            await RunAsync(["ip", "-n", link.Namespace, "link", "set", link._serviceDevice, "up"], cancellationToken);
            await RunAsync(["ip", "-n", link.Namespace, "link", "set", "lo", "up"], cancellationToken);

            // This machine's end first: whether netem takes there decides the other end's.
            link.Netem = await ShapeAsync(profile, null, link._hostDevice, tryNetem: profile.DelaysOrLoses, cancellationToken);
            await ShapeAsync(profile, link.Namespace, link._serviceDevice, tryNetem: link.Netem, cancellationToken);
            if (profile.DelaysOrLoses && !link.Netem)
            {
                if (DelayerProcess.Unavailable() is { } why)
                {
                    throw new LaunchException($"Could not delay the link for --network {profile.Name}: {why}");
                }

                link.Delayer = await DelayerProcess.StartAsync(profile, link.Namespace, link._hostDevice, link._serviceDevice, Environment.ProcessId, cancellationToken);
                log($"Link delayer: {link.Delayer.ReadyLine}");
            }

            link._log = log;
            log($"Network: {profile.Name}, the services in network namespace {link.Namespace} ({link.HostAddress} ↔ {link.ServiceAddress}), {link.Shaping}");
            made = true;
            return link;
        }
        catch (NetworkCommandException e)
        {
            throw new LaunchException($"Could not make the shaped link for --network {profile.Name}: {e.Message}");
        }
        finally
        {
            if (!made)
            {
                await link.DisposeAsync();
            }
        }
    }

    /// <summary>Removes the namespace (and with it its end of the veth pair and its qdiscs) and this machine's end.</summary>
    public async ValueTask DisposeAsync()
    {
        if (_disposed)
        {
            return;
        }

        _disposed = true;
        if (Delayer is not null)
        {
            if (await Delayer.StopAsync() is { } did)
            {
                _log($"Link delayer: {did}");
            }

            await Delayer.DisposeAsync();
        }

        await RemoveAsync(CancellationToken.None);
    }

    /// <summary>The namespaces and links of ProtocolBench runs on this machine: "pb-PID" and "pbhPID" names.</summary>
    public static async Task<IReadOnlyList<string>> ListAsync(CancellationToken cancellationToken = default)
    {
        var namespaces = (await RunAsync(["ip", "netns", "list"], cancellationToken))
            .Split('\n', StringSplitOptions.RemoveEmptyEntries)
            .Select(line => line.Split(' ')[0])
            .Where(name => NamespaceName().IsMatch(name));
        var links = HostDeviceName().Matches(await RunAsync(["ip", "-o", "link", "show"], cancellationToken)).Select(m => m.Groups[1].Value);
        return [.. namespaces, .. links];
    }

    /// <summary>Removes what runs whose process is gone left behind (killed before they could clean up).</summary>
    public static async Task RemoveLeftoversAsync(Action<string> log, CancellationToken cancellationToken)
    {
        await DelayerProcess.RemoveLeftoverRulesAsync(id => id != Environment.ProcessId && !Directory.Exists($"/proc/{id}"), log, cancellationToken);
        foreach (var name in await ListAsync(cancellationToken))
        {
            var id = int.Parse(name.TrimStart('p', 'b', 'h', '-'), CultureInfo.InvariantCulture);
            if (id != Environment.ProcessId && !Directory.Exists($"/proc/{id}"))
            {
                await new ShapedLink(NetworkProfile.Loopback, id).RemoveAsync(cancellationToken);
                log($"Removed {name}, left by an earlier run (process {id} is gone).");
            }
        }
    }

    /// <summary>Shapes one end's egress: htb at the rate, netem below it (or alone); returns whether netem took.</summary>
    private static async Task<bool> ShapeAsync(NetworkProfile profile, string? space, string device, bool tryNetem, CancellationToken cancellationToken)
    {
        string[] Tc(params string[] args) => space is null ? ["tc", .. args] : ["tc", "-n", space, .. args];
        var parent = "root";
        if (profile.BitsPerSecond is { } rate)
        {
            var tcRate = NetworkProfile.TcRate(rate);
            await RunAsync(Tc("qdisc", "add", "dev", device, "root", "handle", "1:", "htb", "default", "10"), cancellationToken);
            // One class: its quantum only silences htb's warning about a large one (it shares nothing).
            await RunAsync(Tc("class", "add", "dev", device, "parent", "1:", "classid", "1:10", "htb", "rate", tcRate, "ceil", tcRate, "quantum", "60000"), cancellationToken);
            parent = "parent 1:10";
        }

        if (!tryNetem)
        {
            return false;
        }

        var netem = Tc(["qdisc", "add", "dev", device, .. parent.Split(' '), "handle", "10:", .. profile.NetemArguments()]);
        try
        {
            await RunAsync(netem, cancellationToken);
            return true;
        }
        catch (NetworkCommandException e) when (e.Message.Contains("qdisc kind is unknown", StringComparison.OrdinalIgnoreCase))
        {
            return false;
        }
    }

    private async Task RemoveAsync(CancellationToken cancellationToken)
    {
        foreach (var command in new[] { new[] { "ip", "netns", "del", Namespace }, ["ip", "link", "del", _hostDevice] })
        {
            try
            {
                await RunAsync(command, cancellationToken);
            }
            catch (NetworkCommandException)
            {
                // Already gone (deleting the namespace takes its veth end, and the pair goes with it).
            }
        }
    }

    [GeneratedRegex(@"^pb-\d+$")]
    private static partial Regex NamespaceName();

    [GeneratedRegex(@"^\d+:\s+(pbh\d+)[@:]", RegexOptions.Multiline)]
    private static partial Regex HostDeviceName();
}
