using System.Text.Json;
using Microsoft.AspNetCore.Diagnostics.HealthChecks;
using Microsoft.AspNetCore.Routing;

namespace ProtocolBench.Shared.Hosting.Health;

/// <summary>The two plain HTTP endpoints every service has beside its protocol: its health and the transport floor.</summary>
public static class ServiceHealth
{
    /// <summary>
    /// GET /healthz: 200 when the database and payload files are available, 503 otherwise.
    /// GET /baseline: fixed bytes with no work behind them, so the benchmark can show the round-trip floor of each transport.
    /// </summary>
    public static IEndpointRouteBuilder MapServiceHealth(this IEndpointRouteBuilder app)
    {
        app.MapHealthChecks("/healthz", new HealthCheckOptions { ResponseWriter = WriteHealthAsync });
        app.MapGet("/baseline", () => Results.Bytes(Floors.BaselineBody, "text/plain"));
        return app;
    }

    private static Task WriteHealthAsync(HttpContext context, HealthReport report)
    {
        context.Response.ContentType = "application/json";
        return context.Response.WriteAsync(JsonSerializer.Serialize(new
        {
            status = report.Status.ToString(),
            checks = report.Entries.ToDictionary(e => e.Key, e => new { status = e.Value.Status.ToString(), description = e.Value.Description }),
        }));
    }
}
