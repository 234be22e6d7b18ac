namespace ProtocolBench.Integration.Tests.Infrastructure;

/// <summary>One gRPC call written by hand over h2c, so that the bytes on the wire are exactly the ones a test chose.</summary>
public static class GrpcCalls
{
    /// <summary>The call's grpc-status (null when it ended without one) and its reply message, unframed; through <paramref name="handler"/> when given.</summary>
    public static async Task<(string? Status, byte[] Message)> CallAsync(
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
        var status = response.Headers.TryGetValues("grpc-status", out var inHeaders) ? inHeaders.Single()
            : response.TrailingHeaders.TryGetValues("grpc-status", out var inTrailers) ? inTrailers.Single()
            : null;
        return (status, body.Length >= 5 ? body[5..] : []);
    }
}
