using ProtocolBench.Lab.CommandLine;
using ProtocolBench.Lab.Conditions;

namespace ProtocolBench.Integration.Tests;

/// <summary>The options both commands share, parsed once by the harness: what a user types and what it means.</summary>
public sealed class CommandLineTests
{
    [Theory]
    [InlineData("--ports", "6100,6101,6200,6201,6300,6301,6400,6401")]
    [InlineData("--ports=6100,6101,6200,6201,6300,6301,6400,6401")]
    [InlineData("--ports:6100,6101,6200,6201,6300,6301,6400,6401")]
    public void PortsAreReadInEveryNotation(params string[] args)
    {
        var settings = Read(args);

        Assert.Equal((6200, 6201), settings.Addresses.Ports(Shared.Clients.Protocol.Grpc));
        Assert.Equal((6400, 6401), settings.Addresses.Ports(Shared.Clients.Protocol.SignalR));
    }

    [Fact]
    public void IdleCoresPollUnlessNoIdlePollIsGiven()
    {
        Assert.False(Read().NoIdlePoll);
        Assert.True(Read("--no-idle-poll").NoIdlePoll);
    }

    [Fact]
    public void AConnectionStringAloneMeansPostgres()
    {
        var settings = Read("--connection-string", "Host=127.0.0.1;Database=x");

        Assert.Equal(DatabaseProvider.PostgreSQL, settings.Database!.Provider);
    }

    [Fact]
    public void ASqliteConnectionStringAloneMeansSqlite()
    {
        var settings = Read("--connection-string", "Data Source=/tmp/x.db");

        Assert.Equal(DatabaseProvider.Sqlite, settings.Database!.Provider);
        Assert.Equal("Data Source=/tmp/x.db", settings.Database.ConnectionString);
    }

    [Fact]
    public void AConnectionStringThatIsNeitherSaysSoAsAUsageError()
    {
        var error = Assert.Throws<UsageException>(() => Read("--database", "postgres", "--connection-string", "Data Source=x.db"));

        Assert.Contains("--connection-string", error.Message);
    }

    [Fact]
    public void SqliteWithAConnectionStringStaysSqlite()
    {
        var settings = Read("--database", "sqlite", "--connection-string", "Data Source=x.db");

        Assert.Equal(DatabaseProvider.Sqlite, settings.Database!.Provider);
        Assert.Equal("Data Source=x.db", settings.Database.ConnectionString);
    }

    [Fact]
    public void PostgresWithoutAConnectionStringSaysWhatToAdd()
    {
        var error = Assert.Throws<UsageException>(() => Read("--database", "postgres"));

        Assert.Contains("--connection-string", error.Message);
    }

    [Fact]
    public void ExternalLoopbackIsReachedAsLocalhostOverHttps()
    {
        var settings = Read("--external", "127.0.0.1");

        Assert.Equal("127.0.0.1", settings.Addresses.Host);
        Assert.Equal("localhost", settings.Addresses.TlsHost);
        Assert.Null(settings.Database);
    }

    [Fact]
    public void ConnectionsNewReachesEveryClient()
    {
        var settings = Read("--connections", "new");

        Assert.Equal(Shared.Clients.ConnectionPolicy.New, settings.Conditions.Connections);
        Assert.Equal(Shared.Clients.ConnectionPolicy.New, settings.ClientOptions(settings.Addresses).Connections);
        Assert.Equal(Shared.Clients.ConnectionPolicy.Reuse, Read().Conditions.Connections);
    }

    [Theory]
    [InlineData("gzip", Shared.Clients.Compression.Gzip)]
    [InlineData("br", Shared.Clients.Compression.Brotli)]
    public void CompressionReachesEveryClientAndTheServices(string value, Shared.Clients.Compression expected)
    {
        var settings = Read("--compression", value);

        Assert.Equal(expected, settings.ClientOptions(settings.Addresses).Compression);
        Assert.Equal("true", settings.Conditions.ServiceSettings["Compression:Enabled"]);
        Assert.Empty(Read().Conditions.ServiceSettings);
    }

    [Fact]
    public void APresetGivesItsPapersConditionsAndAnExplicitOptionWins()
    {
        var bolanowski = Read("--as", "bolanowski");
        var reused = Read("--as", "bolanowski", "--connections", "reuse", "--client", "dotnet");

        Assert.Equal("lan-100m", bolanowski.Conditions.Network.Name);
        Assert.Equal(ClientStack.Jmeter, bolanowski.Conditions.Client);
        Assert.Equal(ClientStack.Dotnet, reused.Conditions.Client);
        Assert.Equal(Shared.Clients.ConnectionPolicy.New, bolanowski.Conditions.Connections);
        Assert.Equal("bolanowski", bolanowski.Conditions.Preset);
        Assert.Contains("*Scenario: pdf,*", bolanowski.Preset!.BenchmarkFilters);
        Assert.Equal(Shared.Clients.ConnectionPolicy.Reuse, reused.Conditions.Connections);
        Assert.Equal("lan-100m", reused.Conditions.Network.Name);
    }

    [Theory]
    [InlineData("--external", "10.0.0.5")]
    [InlineData("--connection-string", "Host=127.0.0.1;Database=x")]
    public void AShapedNetworkGoesWithServicesStartedHereOnSqliteOnly(string option, string value)
    {
        var error = Assert.Throws<UsageException>(() => Read("--network", "lan-100m", option, value));

        Assert.Contains("--network", error.Message);
    }

    [Theory]
    [InlineData("--ports", "1,2")]
    [InlineData("--database", "oracle")]
    [InlineData("--connections", "sometimes")]
    [InlineData("--compression", "zip")]
    [InlineData("--network", "rate=fast")]
    [InlineData("--as", "smith")]
    public void BadValuesAreParseErrorsNamingTheOption(string option, string value)
    {
        var (root, _) = Root();

        var result = root.Parse([option, value]);

        Assert.Contains(result.Errors, e => e.Message.Contains(option.TrimStart('-').Split('=')[0], StringComparison.Ordinal));
    }

    [Fact]
    public void TheReportedCommandPastesIntoAShellAndHidesThePassword()
    {
        var line = ShellCommand.Of("loadtests", ["users", "--filter", "*Authors*", "--database", "postgres",
            "--connection-string", "Host=db;Username=pb;Password=s3cret;Database=protocolbench", "--results", "/tmp/it's here"]);

        Assert.Equal("dotnet run -c Release --project loadtests -- users --filter '*Authors*' --database postgres " +
                     "--connection-string 'Host=db;Username=pb;Password=***;Database=protocolbench' --results '/tmp/it'\\''s here'", line);
    }

    /// <summary>
    /// Parsing is tested without the client stacks or a shaped link: what the options ask of the machine is found by
    /// <see cref="CommonOptions.Machine"/>, which these tests answer themselves; the stacks' and the link's own tests skip,
    /// with the line that installs them, where they are missing.
    /// </summary>
    [Fact]
    public void AMissingStackIsAUsageErrorWithWhatItSaidAndItsInstallLine()
    {
        var (root, common) = Root(client => new StackProbe(client, null, "the JMeter stack needs /usr/share/java/netty-buffer.jar, from Debian's libnetty-java"));

        var error = Assert.Throws<UsageException>(() => common.Read(root.Parse(["--as", "bolanowski"])));

        Assert.Contains("(the JMeter stack needs /usr/share/java/netty-buffer.jar, from Debian's libnetty-java)", error.Message);
        Assert.EndsWith($"apt-get install {ClientStacks.DebianPackages(ClientStack.Jmeter)}", error.Message);
        Assert.Contains(" libnetty-java ", error.Message);
        Assert.Contains(" libperfmark-java ", error.Message);
    }

    /// <summary>The two stacks' install lines are the ones docs/developing.md (the tests' prerequisites) and docs/methodology.md give, word for word.</summary>
    [Theory]
    [InlineData(ClientStack.Jmeter)]
    [InlineData(ClientStack.Python)]
    public void TheDocsGiveEachStacksInstallLine(ClientStack client)
    {
        var line = $"apt-get install {ClientStacks.DebianPackages(client)}";
        foreach (var doc in new[] { "docs/developing.md", "docs/methodology.md" })
        {
            // Markdown wraps a long line: read its words with single spaces.
            var text = System.Text.RegularExpressions.Regex.Replace(File.ReadAllText(Path.Combine(ProjectPaths.RootOrCurrent, doc)), @"\s+", " ");
            Assert.True(text.Contains(line, StringComparison.Ordinal), $"{doc} does not give the line: {line}");
        }
    }

    private static CommonSettings Read(params string[] args)
    {
        var (root, common) = Root();
        var result = root.Parse(args);
        Assert.Empty(result.Errors);
        return common.Read(result);
    }

    private static (System.CommandLine.RootCommand Root, CommonOptions Common) Root(Func<ClientStack, StackProbe>? probe = null)
    {
        var common = new CommonOptions
        {
            Machine = new MachineProbes(probe ?? (client => new StackProbe(client, $"{client.Name()} (as the test says)", null)), _ => null),
        };
        var root = CommonOptions.Root("test");
        common.AddTo(root);
        return (root, common);
    }
}
