using System.Net;

namespace ProtocolBench.Lab.Services;

/// <summary>GET /healthz on a service's HTTP port (h2c for gRPC): the one health check of the launcher and the session.</summary>
public static class HealthProbe
{
    /// <summary>Null when the service answers healthy; otherwise what went wrong, for a message.</summary>
    public static async Task<string?> ProblemAsync(
        ServiceAddresses addresses, Protocol protocol, TimeSpan timeout, CancellationToken cancellationToken)
    {
        var uri = new Uri($"http://{addresses.Host}:{addresses.Ports(protocol).Http}/healthz");
        using var client = new HttpClient(new SocketsHttpHandler { UseProxy = false, ConnectTimeout = timeout }) { Timeout = timeout };
        using var request = new HttpRequestMessage(HttpMethod.Get, uri)
        {
            Version = protocol == Protocol.Grpc ? HttpVersion.Version20 : HttpVersion.Version11,
            VersionPolicy = HttpVersionPolicy.RequestVersionExact,
        };
        try
        {
            using var response = await client.SendAsync(request, cancellationToken);
            return response.IsSuccessStatusCode
                ? null
                : $"GET {uri} → HTTP {(int)response.StatusCode} {await response.Content.ReadAsStringAsync(cancellationToken)}".TrimEnd();
        }
        catch (Exception e) when (e is HttpRequestException or TaskCanceledException && !cancellationToken.IsCancellationRequested)
        {
            return $"GET {uri}: {e.Message}";
        }
    }
}
