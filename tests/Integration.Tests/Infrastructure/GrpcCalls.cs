namespace ProtocolBench.Integration.Tests.Infrastructure;

/// <summary>One gRPC call written by hand over h2c, so that the bytes on the wire are exactly the ones a test chose.</summary>
public static class GrpcCalls
{
    /// <summary>
    /// The call's grpc-status (null when it ended without one), its reply message, unframed, and its grpc-message (decoded);
    /// through <paramref name="handler"/> when given.
    /// </summary>
    public static async Task<(string? Status, byte[] Message, string? Detail)> CallAsync(
        ServicesFixture fixture, string method, byte[] message, CancellationToken cancellationToken, bool compressed = false, HttpMessageHandler? handler = null)
    {
        using var http = new HttpClient(handler ?? new SocketsHttpHandler())
        {
            BaseAddress = fixture.Addresses.BaseUri(Protocol.Grpc, Transport.Http),
            Timeout = TimeSpan.FromSeconds(30),
        };
        using var request = new HttpRequestMessage(HttpMethod.Post, method)
        {
            Content = new ByteArrayContent(GrpcFrame.Of(message, compressed)),
            Version = HttpVersion.Version20,
            VersionPolicy = HttpVersionPolicy.RequestVersionExact,
        };
        request.Content.Headers.ContentType = new("application/grpc");
        request.Headers.TE.ParseAdd("trailers");
        if (compressed)
        {
            request.Headers.Add("grpc-encoding", "gzip");
        }

        using var response = await http.SendAsync(request, cancellationToken);
        var body = await response.Content.ReadAsByteArrayAsync(cancellationToken);
        return (Header(response, "grpc-status"), body.Length >= 5 ? body[5..] : [], Header(response, "grpc-message") is { } detail ? Uri.UnescapeDataString(detail) : null);
    }

    private static string? Header(HttpResponseMessage response, string name) =>
        response.Headers.TryGetValues(name, out var inHeaders) ? inHeaders.Single()
        : response.TrailingHeaders.TryGetValues(name, out var inTrailers) ? inTrailers.Single()
        : null;
}
