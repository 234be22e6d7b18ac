using ProtocolBench.Lab.Network;

namespace ProtocolBench.Integration.Tests;

/// <summary>--network: the profiles as a user writes them, and a real shaped link (root or CAP_NET_ADMIN, iproute2).</summary>
public sealed class NetworkTests : IDisposable
{
    private readonly string _database = Path.Combine(Path.GetTempPath(), $"protocolbench-network-{Guid.NewGuid():N}.db");

    private static CancellationToken Token => TestContext.Current.CancellationToken;

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
            var launch = new LaunchOptions
            {
                Addresses = ServiceAddresses.AnyFree with { Host = link.ServiceAddress },
                Services = [ServiceSpec.All.Single(s => s.Protocol == Protocol.Rest)],
                Provider = DatabaseProvider.Sqlite,
                ConnectionString = $"Data Source={_database}",
                NetworkNamespace = link.Namespace,
                StartupTimeout = TimeSpan.FromSeconds(180),
            };
            await using var services = await ServiceLauncher.StartAsync(launch, cancellationToken: Token);
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

    /// <summary>A namespace and a link named after a process that no longer exists are removed by the next run.</summary>
    [Fact]
    public async Task WhatAKilledRunLeftIsRemovedAtTheNextStart()
    {
        Assert.SkipWhen(ShapedLink.Unavailable() is not null, ShapedLink.Unavailable() ?? "");
        const int gone = 99_999_999; // above any pid_max (at most 2^22)
        await Processes.RunAsync("ip", "netns", "add", $"pb-{gone}");
        await Processes.RunAsync("ip", "link", "add", $"pbh{gone}", "type", "veth", "peer", "name", $"pbn{gone}");
        Assert.Contains($"pb-{gone}", await ShapedLink.ListAsync(Token));

        var said = new List<string>();
        await ShapedLink.RemoveLeftoversAsync(said.Add, Token);

        var left = await ShapedLink.ListAsync(Token);
        Assert.DoesNotContain($"pb-{gone}", left);
        Assert.DoesNotContain($"pbh{gone}", left);
        Assert.Contains(said, line => line.Contains($"pb-{gone}", StringComparison.Ordinal));
    }

    public void Dispose()
    {
        Microsoft.Data.Sqlite.SqliteConnection.ClearAllPools();
        foreach (var path in new[] { _database, _database + "-wal", _database + "-shm", _database + ".init.lock" })
        {
            File.Delete(path);
        }
    }
}
