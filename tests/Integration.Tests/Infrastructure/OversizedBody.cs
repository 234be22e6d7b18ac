namespace ProtocolBench.Integration.Tests.Infrastructure;

/// <summary>
/// Posts a body over the services' 1 MiB limit the way a careful client does, with Expect: 100-continue: the service
/// refuses it from its Content-Length before reading any of it, and the client, waiting for the go-ahead, never writes
/// into the connection the service closes. Without it the client may still be sending when the refusal comes, and the
/// 413 is lost to a broken pipe (seen once in CI): a race in the test, not in the service.
/// </summary>
public static class OversizedBody
{
    public static async Task<HttpResponseMessage> PostAsync(Uri baseAddress, string path, string json, CancellationToken cancellationToken)
    {
        // The default wait for "100 Continue" is 1 s, after which the body is sent anyway; the refusal never needs that long.
        using var http = new HttpClient(new SocketsHttpHandler { Expect100ContinueTimeout = TimeSpan.FromSeconds(30) })
        {
            BaseAddress = baseAddress,
            Timeout = TimeSpan.FromSeconds(30),
        };
        using var request = new HttpRequestMessage(HttpMethod.Post, path) { Content = new StringContent(json, Encoding.UTF8, "application/json") };
        request.Headers.ExpectContinue = true;
        request.Headers.Accept.ParseAdd("application/json");
        return await http.SendAsync(request, cancellationToken);
    }
}
