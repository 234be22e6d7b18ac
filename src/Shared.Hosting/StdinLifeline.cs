namespace ProtocolBench.Shared.Hosting;

/// <summary>
/// With <c>Lifeline=stdin</c> the service stops when its standard input closes. The launcher holds the other end, so the
/// services exit even if the launcher is killed with SIGKILL and never gets to stop them.
/// </summary>
internal sealed class StdinLifeline(IConfiguration configuration, IHostApplicationLifetime lifetime) : IHostedService
{
    public Task StartAsync(CancellationToken cancellationToken)
    {
        if (string.Equals(configuration["Lifeline"], "stdin", StringComparison.OrdinalIgnoreCase))
        {
            // A thread of its own: reading stdin blocks, and on a service pinned to one core a blocked thread-pool
            // thread starves the pool until it injects another (requests stalled ~1 s in the paced study).
            new Thread(WaitForStdinToClose) { IsBackground = true, Name = "stdin lifeline" }.Start();
        }

        return Task.CompletedTask;
    }

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    private void WaitForStdinToClose()
    {
        using var stdin = Console.OpenStandardInput();
        var buffer = new byte[64];
        try
        {
            while (stdin.Read(buffer) > 0)
            {
            }
        }
        catch (IOException)
        {
        }

        lifetime.StopApplication();
    }
}
