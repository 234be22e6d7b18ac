using ProtocolBench.Lab.Network;
using ProtocolBench.LinkDelayer;

namespace ProtocolBench.Integration.Tests;

/// <summary>--network: the profiles as a user writes them, and a real shaped link (root or CAP_NET_ADMIN, iproute2).</summary>
public sealed class NetworkTests : IDisposable
{
    private readonly string _database = Path.Combine(Path.GetTempPath(), $"protocolbench-network-{Guid.NewGuid():N}.db");

    [Theory]
    [InlineData("lan-100m", 100_000_000L, 0.2, 0)]
    [InlineData("LAN-1G", 1_000_000_000L, 0.1, 0)]
    [InlineData("rate=50mbit,delay=20ms,loss=0.1%", 50_000_000L, 20, 0.1)]
    [InlineData("rate=1.5gbit", 1_500_000_000L, 0, 0)]
    [InlineData("delay=500us", null, 0.5, 0)]
    public void ProfilesReadAsWritten(string value, long? bits, double delayMs, double loss)
    {
        var profile = NetworkProfile.Parse(value);

        Assert.Equal(bits, profile.BitsPerSecond);
        Assert.Equal(delayMs, profile.DelayMs, 6);
        Assert.Equal(loss, profile.LossPercent, 6);
        Assert.False(profile.IsLoopback);
    }

    [Theory]
    [InlineData("fast")]
    [InlineData("rate=fast")]
    [InlineData("rate=100")]
    [InlineData("delay=20")]
    [InlineData("loss=150%")]
    [InlineData("speed=1gbit")]
    public void AnUnknownProfileSaysWhatIsAllowed(string value) =>
        Assert.Throws<FormatException>(() => NetworkProfile.Parse(value));

    /// <summary>
    /// netem's queue holds what the link carries during the delay (twice over, at least netem's 1,000 packets), so a long,
    /// fast link is not turned into a lossy one; delay, jitter and loss are written as tc reads them.
    /// </summary>
    [Theory]
    [InlineData("wan", "netem limit 1000 delay 20000us 2000us loss 0.1%")]
    [InlineData("rate=1gbit,delay=40ms", "netem limit 6667 delay 40000us")]
    [InlineData("rate=10gbit,delay=100ms,jitter=10ms", "netem limit 183334 delay 100000us 10000us")]
    [InlineData("delay=20ms,loss=1%", "netem delay 20000us loss 1%")]
    public void NetemQueuesWhatTheLinkCarriesDuringTheDelay(string value, string expected) =>
        Assert.Equal(expected, string.Join(' ', NetworkProfile.Parse(value).NetemArguments()));

    /// <summary>
    /// The services in their namespace over a 40 Mbit/s link: the 3.4 MB PDF cannot arrive faster than the rate allows (at
    /// least 90 % of bytes ÷ rate), arrives whole, and disposing the link removes the namespace and the veth pair.
    /// </summary>
    [Fact]
    public async Task AShapedLinkCarriesThePdfNoFasterThanItsRateAndLeavesNothingBehind()
    {
        Assert.SkipWhen(ShapedLink.Unavailable() is not null, ShapedLink.Unavailable() ?? "");
        var profile = NetworkProfile.Parse("rate=40mbit");
        var link = await ShapedLink.CreateAsync(profile, _ => { }, Token);
        try
        {
            await using var services = await StartRestBehindAsync(link);
            await using var client = ProtocolClients.Create(Protocol.Rest, Transport.Https, new ClientOptions { Addresses = services.Addresses });
            await client.GetIntMaxAsync(Token);

            var watch = Stopwatch.StartNew();
            var pdf = await client.GetPdfBinaryAsync(Token)!;
            var seconds = watch.Elapsed.TotalSeconds;

            Assert.Equal(Expected.Sha256(Expected.Pdf), Expected.Sha256(pdf));
            var least = 0.9 * pdf.Length * 8 / 40e6;
            Assert.True(seconds >= least, $"the PDF took {seconds:F3} s over a 40 Mbit/s link; bytes ÷ rate is {least / 0.9:F3} s");
        }
        finally
        {
            await link.DisposeAsync();
        }

        Assert.DoesNotContain(link.Namespace, await ShapedLink.ListAsync(Token));
        Assert.DoesNotContain($"pbh{Environment.ProcessId}", await ShapedLink.ListAsync(Token));
    }

    /// <summary>
    /// A link's delay holds every packet each way, handshakes included: a TCP connect takes at least one round trip of
    /// the delay, and a request on the open connection another. Where the kernel has no netem, the NFQUEUE delayer does
    /// it, and stops with the link, taking its iptables rule.
    /// </summary>
    [Fact]
    public async Task ADelayedLinkHoldsEveryPacketEachWayAndLeavesNothingBehind()
    {
        var profile = NetworkProfile.Parse("rate=100mbit,delay=10ms");
        Assert.SkipWhen(ShapedLink.Unavailable(profile) is not null, ShapedLink.Unavailable(profile) ?? "");
        var said = new List<string>();
        var link = await ShapedLink.CreateAsync(profile, said.Add, Token);
        int? delayer = link.Delayer?.Id;
        try
        {
            await using var services = await StartRestBehindAsync(link);
            var connects = new List<double>();
            for (var i = 0; i < 5; i++)
            {
                using var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
                var watch = Stopwatch.StartNew();
                await socket.ConnectAsync(link.ServiceAddress, services.Addresses.RestHttp, Token);
                connects.Add(watch.Elapsed.TotalMilliseconds);
            }

            await using var client = ProtocolClients.Create(Protocol.Rest, Transport.Http, new ClientOptions { Addresses = services.Addresses });
            await client.GetIntMaxAsync(Token);
            var call = Stopwatch.StartNew();
            Assert.Equal(int.MaxValue, await client.GetIntMaxAsync(Token));
            var callMs = call.Elapsed.TotalMilliseconds;

            // The floors only: a shared machine can make a call slower, never faster than the link lets it be.
            Assert.All(connects, ms => Assert.True(ms >= 19.5, $"a TCP connect took {ms:F2} ms over a link of 10 ms each way"));
            Assert.True(callMs >= 19.5, $"a call on an open connection took {callMs:F2} ms over a link of 10 ms each way");
            if (!link.Netem)
            {
                Assert.Contains("NFQUEUE delayer", link.Describe(), StringComparison.Ordinal);
            }
        }
        finally
        {
            await link.DisposeAsync();
        }

        Assert.DoesNotContain(link.Namespace, await ShapedLink.ListAsync(Token));
        if (delayer is { } pid)
        {
            Assert.False(Processes.IsRunning(pid), $"the link delayer (pid {pid}) still runs after the link was removed");
            Assert.DoesNotContain($"pbh{Environment.ProcessId} ", await Processes.RunAsync("iptables", "-w", "-t", "mangle", "-S", "PREROUTING"));
            Assert.Contains(said, line => line.StartsWith("Link delayer: queue 0 in ", StringComparison.Ordinal) && line.Contains("lost 0", StringComparison.Ordinal));
        }
    }

    /// <summary>
    /// Jitter varies each packet's hold within its band (packets far apart: each hold its own) and never lets a packet
    /// overtake the one ahead of it (packets close together: a short hold waits for the one ahead, as on one wire).
    /// </summary>
    [Theory]
    [InlineData(30.0, 15, 16)]
    [InlineData(0.1, 15, 25)]
    public void JitterStaysInItsBandAndNeverReorders(double everyMs, double shortestFrom, double shortestTo)
    {
        var fate = new PacketFate(delayMs: 20, jitterMs: 5, lossPercent: 0, seed: 7);
        var ms = Stopwatch.Frequency / 1000.0;
        var dueAhead = long.MinValue;
        var holds = new List<double>();
        for (var i = 0; i < 10_000; i++)
        {
            var received = (long)(i * everyMs * ms);
            var due = fate.Due(received, dueAhead) ?? throw new InvalidOperationException("lost without loss");
            Assert.True(due >= dueAhead, $"packet {i} would leave before the one ahead of it");
            holds.Add((due - received) / ms);
            dueAhead = due;
        }

        Assert.InRange(holds.Min(), shortestFrom, shortestTo);
        Assert.InRange(holds.Max(), 24, 25);
    }

    /// <summary>Loss drops its share of packets, seeded: the same seed loses the same packets.</summary>
    [Fact]
    public void LossDropsItsShareTheSameWayForTheSameSeed()
    {
        static bool[] Lost(int seed)
        {
            var fate = new PacketFate(delayMs: 1, jitterMs: 0, lossPercent: 10, seed);
            return [.. Enumerable.Range(0, 100_000).Select(i => fate.Due(i, long.MinValue) is null)];
        }

        var lost = Lost(3);
        Assert.InRange(lost.Count(l => l), 9_500, 10_500); // 10 % of 100,000; the binomial's deviation is 95
        Assert.Equal(lost, Lost(3));
        Assert.NotEqual(lost, Lost(4));
    }

    /// <summary>A namespace and a link named after a process that no longer exists are removed by the next run.</summary>
    [Fact]
    public async Task WhatAKilledRunLeftIsRemovedAtTheNextStart()
    {
        Assert.SkipWhen(ShapedLink.Unavailable() is not null, ShapedLink.Unavailable() ?? "");
        const int gone = 99_999_999; // above any pid_max (at most 2^22)
        await Processes.RunAsync("ip", "netns", "add", $"pb-{gone}");
        await Processes.RunAsync("ip", "link", "add", $"pbh{gone}", "type", "veth", "peer", "name", $"pbn{gone}");
        Assert.Contains($"pb-{gone}", await ShapedLink.ListAsync(Token));
        var delayed = DelayerProcess.Unavailable() is null;
        if (delayed)
        {
            // The link delayer's rule on this machine, which a run killed outright leaves behind.
            await Processes.RunAsync("iptables", "-w", "-t", "mangle", "-A", "PREROUTING", "-i", $"pbh{gone}", "-j", "NFQUEUE", "--queue-num", "7");
        }

        var said = new List<string>();
        await ShapedLink.RemoveLeftoversAsync(said.Add, Token);

        var left = await ShapedLink.ListAsync(Token);
        Assert.DoesNotContain($"pb-{gone}", left);
        Assert.DoesNotContain($"pbh{gone}", left);
        Assert.Contains(said, line => line.Contains($"pb-{gone}", StringComparison.Ordinal));
        if (delayed)
        {
            Assert.DoesNotContain($"pbh{gone} ", await Processes.RunAsync("iptables", "-w", "-t", "mangle", "-S", "PREROUTING"));
        }
    }

    /// <summary>The REST service in the link's namespace, on ports the kernel chooses.</summary>
    private Task<RunningServices> StartRestBehindAsync(ShapedLink link) => ServiceLauncher.StartAsync(
        new LaunchOptions
        {
            Addresses = ServiceAddresses.AnyFree with { Host = link.ServiceAddress },
            Services = [ServiceSpec.All.Single(s => s.Protocol == Protocol.Rest)],
            Provider = DatabaseProvider.Sqlite,
            ConnectionString = $"Data Source={_database}",
            NetworkNamespace = link.Namespace,
            StartupTimeout = TimeSpan.FromSeconds(180),
        },
        cancellationToken: Token);

    public void Dispose()
    {
        Microsoft.Data.Sqlite.SqliteConnection.ClearAllPools();
        foreach (var path in new[] { _database, _database + "-wal", _database + "-shm", _database + ".init.lock" })
        {
            File.Delete(path);
        }
    }
}
