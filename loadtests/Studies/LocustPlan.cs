using System.Net;
using System.Net.Sockets;

namespace ProtocolBench.LoadTests.Studies;

/// <summary>
/// Where --engine locust's workers run (--locust-workers): <see cref="Count"/> started on this machine, or one for each of
/// <see cref="Hosts"/> (other machines, or a network namespace of this one), started there with <see cref="WorkerCommand"/>
/// and waited for. Remote workers reach the master and the services through <see cref="Address"/>, this machine's address
/// on the way to them, where both listen.
/// </summary>
public sealed record LocustPlan(int Count, IReadOnlyList<string> Hosts, string Address, int Port)
{
    /// <summary>Locust's own default port for its workers.</summary>
    public const int DefaultPort = 5557;

    /// <summary>How long a study waits for remote workers to join, before each cell that needs them again.</summary>
    public static readonly TimeSpan RemoteJoinLimit = TimeSpan.FromMinutes(10);

    /// <summary>Whether the workers run elsewhere and are waited for.</summary>
    public bool Remote => Hosts.Count > 0;

    /// <summary><paramref name="count"/> workers on this machine, meeting the master on the loopback interface.</summary>
    public static LocustPlan Local(int count) => new(count, [], "127.0.0.1", 0);

    /// <summary>One worker on each of <paramref name="hosts"/> (a host named twice runs two), meeting the master on <paramref name="port"/>.</summary>
    public static LocustPlan OnHosts(IReadOnlyList<string> hosts, int port) => new(hosts.Count, hosts, FacingAddress(hosts), port);

    /// <summary>The command that starts one worker on a worker host, run from a copy of this repository's tools/stacks/ folder.</summary>
    public string WorkerCommand(int port) =>
        $"cd tools/stacks/locust && /usr/bin/python3 -m locust -f locustfile.py --worker --master-host {Address} --master-port {port}";

    /// <summary>Where the workers are, as the report's setup says it.</summary>
    public string Describe(int port, string joined) => Remote
        ? $"a master on this machine at {Address}:{port} and {Count} worker(s) asked for on {string.Join(", ", Hosts)}, which joined as {joined}"
        : $"a master and {Count} worker(s) on this machine";

    /// <summary>
    /// This machine's address on the way to every host (the source address the kernel's routes choose), which must be one:
    /// the services and the master listen there.
    /// </summary>
    private static string FacingAddress(IReadOnlyList<string> hosts)
    {
        var facing = new Dictionary<string, string>();
        foreach (var host in hosts.Distinct())
        {
            IPAddress target;
            try
            {
                target = IPAddress.TryParse(host, out var ip) ? ip : Dns.GetHostAddresses(host).First(a => a.AddressFamily == AddressFamily.InterNetwork);
            }
            catch (Exception e) when (e is SocketException or InvalidOperationException or ArgumentException)
            {
                throw new UsageException($"--locust-workers: '{host}' is not an address or a host name this machine resolves to an IPv4 address.");
            }

            // Connecting a UDP socket sends nothing: it asks the kernel which of this machine's addresses reaches the host.
            using var probe = new Socket(AddressFamily.InterNetwork, SocketType.Dgram, ProtocolType.Udp);
            try
            {
                probe.Connect(target, DefaultPort);
            }
            catch (SocketException e)
            {
                throw new UsageException($"--locust-workers: this machine has no route to {host} ({target}): {e.Message}");
            }

            facing[host] = ((IPEndPoint)probe.LocalEndPoint!).Address.ToString();
        }

        return facing.Values.Distinct().Count() == 1
            ? facing.Values.First()
            : throw new UsageException(
                "--locust-workers: the hosts reach this machine through different addresses " +
                $"({string.Join(", ", facing.Select(f => $"{f.Key} through {f.Value}"))}); the master and the services listen on one: " +
                "give hosts of one network.");
    }
}
