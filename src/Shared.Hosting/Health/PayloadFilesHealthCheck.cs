namespace ProtocolBench.Shared.Hosting.Health;

/// <summary>Healthy when the payload files were read at start; otherwise says why not (their file operations answer UNAVAILABLE).</summary>
internal sealed class PayloadFilesHealthCheck(PayloadFiles files) : IHealthCheck
{
    public Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken cancellationToken = default) =>
        Task.FromResult(files.IsAvailable ? HealthCheckResult.Healthy() : HealthCheckResult.Unhealthy(files.Error));
}
