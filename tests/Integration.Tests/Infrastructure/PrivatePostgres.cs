namespace ProtocolBench.Integration.Tests.Infrastructure;

/// <summary>
/// A PostgreSQL server of the test's own (initdb in a temporary folder, reached through its own Unix socket), so a test can stop and start a
/// real server without touching the one the other tests use. Needs the server binaries (Debian: /usr/lib/postgresql/N/bin);
/// as root the server runs as the postgres user, as PostgreSQL requires.
/// </summary>
public sealed class PrivatePostgres : IAsyncDisposable
{
    private readonly string _bin;
    private readonly string _data = Path.Combine(Path.GetTempPath(), $"protocolbench-pg-{Guid.NewGuid():N}");

    private PrivatePostgres(string bin) => _bin = bin;

    /// <summary>
    /// Only names the server's Unix socket (.s.PGSQL.N in its data folder): it listens on no TCP port, so it cannot collide
    /// with another process over one, before a start or a restart.
    /// </summary>
    private const int Port = 5432;

    /// <summary>The folder holding initdb and pg_ctl, or null with the reason.</summary>
    public static string? FindBinaries(out string? why)
    {
        var bin = Directory.Exists("/usr/lib/postgresql")
            ? Directory.GetDirectories("/usr/lib/postgresql").Select(d => Path.Combine(d, "bin")).Where(d => File.Exists(Path.Combine(d, "initdb"))).Order().LastOrDefault()
            : null;
        why = bin is null ? "PostgreSQL's server binaries (initdb, pg_ctl) were not found under /usr/lib/postgresql/N/bin." : null;
        return bin;
    }

    public static async Task<PrivatePostgres> CreateAsync(CancellationToken cancellationToken)
    {
        var bin = FindBinaries(out var why) ?? throw new InvalidOperationException(why);
        var server = new PrivatePostgres(bin);
        await server.RunAsync("initdb", ["-D", server._data, "-U", "postgres", "-A", "trust", "--no-sync"], cancellationToken);
        await server.StartAsync(cancellationToken);
        return server;
    }

    public string ConnectionString(string database, string extra = "") =>
        $"Host={_data};Port={Port};Username=postgres;Database={database}{(extra.Length > 0 ? ";" + extra : "")}";

    public Task StartAsync(CancellationToken cancellationToken) => RunAsync("pg_ctl", [
        "-D", _data, "-l", Path.Combine(_data, "server.log"), "-w", "-t", "60",
        "-o", $"-p {Port} -k {_data} -c listen_addresses='' -c max_connections=120 -c fsync=off", "start"], cancellationToken);

    /// <summary>A fast shutdown: sessions are ended with "terminating connection due to administrator command".</summary>
    public Task StopAsync(CancellationToken cancellationToken) => RunAsync("pg_ctl", ["-D", _data, "-m", "fast", "-w", "-t", "60", "stop"], cancellationToken);

    public async ValueTask DisposeAsync()
    {
        try
        {
            await RunAsync("pg_ctl", ["-D", _data, "-m", "immediate", "-w", "stop"], CancellationToken.None);
        }
        catch (InvalidOperationException)
        {
            // Already stopped.
        }

        if (Directory.Exists(_data))
        {
            Directory.Delete(_data, recursive: true);
        }
    }

    private async Task RunAsync(string tool, IReadOnlyList<string> arguments, CancellationToken cancellationToken)
    {
        var path = Path.Combine(_bin, tool);
        var start = Environment.UserName == "root"
            ? new ProcessStartInfo("runuser", ["-u", "postgres", "--", path, .. arguments])
            : new ProcessStartInfo(path, arguments);
        start.RedirectStandardOutput = true;
        start.RedirectStandardError = true;
        start.WorkingDirectory = Path.GetTempPath();
        using var process = Process.Start(start)!;
        var output = process.StandardOutput.ReadToEndAsync(cancellationToken);
        var error = process.StandardError.ReadToEndAsync(cancellationToken);
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(TimeSpan.FromSeconds(90));
        await process.WaitForExitAsync(timeout.Token);
        if (process.ExitCode != 0)
        {
            throw new InvalidOperationException($"{tool} exited with {process.ExitCode}: {await error}{await output}");
        }
    }
}
