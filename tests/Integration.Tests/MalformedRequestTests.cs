using System.IO.Compression;

namespace ProtocolBench.Integration.Tests;

/// <summary>
/// Malformed framing and unreadable messages (fault table rows 58 and 59): the client's mistake, a 4xx or
/// INVALID_ARGUMENT, no error-level log, nothing written, and the service goes on serving.
/// </summary>
[Collection(SqliteCollection.Name)]
public sealed class MalformedRequestTests(SqliteServices fixture)
{
    [Theory]
    [InlineData("FFFFFFFF")]
    [InlineData("FFFFFFFFFFFFFFFF")]
    [InlineData("1FFFFFFFFFFFFFFFF")]
    public async Task ChunkSizesThatOverflowAre400OnRestAndGraphQL(string chunkSize)
    {
        var before = await fixture.CountRowsAsync();
        foreach (var (protocol, path) in new[] { (Protocol.Rest, "/api/authors"), (Protocol.GraphQL, "/graphql") })
        {
            var address = fixture.Addresses.BaseUri(protocol, Transport.Http);
            using var socket = new TcpClient();
            await socket.ConnectAsync(address.Host, address.Port, Token);
            var stream = socket.GetStream();
            var request = $"POST {path} HTTP/1.1\r\nHost: {address.Authority}\r\nContent-Type: application/json\r\n" +
                          $"Transfer-Encoding: chunked\r\n\r\n{chunkSize}\r\n{{\"name\":";
            await stream.WriteAsync(Encoding.ASCII.GetBytes(request), Token);
            var answer = await ReadAnswerAsync(stream);

            Assert.StartsWith("HTTP/1.1 400 ", answer);
            Assert.Contains("\"code\":\"BAD_REQUEST\"", answer);
            var service = Service(protocol);
            Assert.DoesNotContain("Bad chunk size data", service.Tail());
            Assert.False(service.HasExited);
        }

        Assert.Equal(before, await fixture.CountRowsAsync());
        await AssertAllAliveAsync();
    }

    public static readonly TheoryData<string> UnreadableGrpcRequests =
    [
        "a length that runs past the end",
        "invalid UTF-8 in a string field",
        "corrupt gzip",
        "64 MiB of zeros in 64 KiB of gzip",
    ];

    [Theory]
    [MemberData(nameof(UnreadableGrpcRequests))]
    public async Task UnreadableGrpcRequestsAreTheClientsMistake(string name)
    {
        var (method, compressed, message, expected) = name switch
        {
            "a length that runs past the end" => ("protocolbench.v1.Payloads/Clone", false, new byte[] { 0x0A, 0xFF, 0xFF, 0xFF, 0x0F, 0x61 }, "3"),
            // CreateAuthorRequest { name: 0xC3 0x28 } — not UTF-8; nothing may be written.
            "invalid UTF-8 in a string field" => ("protocolbench.v1.Authors/Create", false, new byte[] { 0x0A, 0x02, 0xC3, 0x28, 0x12, 0x01, 0x50 }, "3"),
            "corrupt gzip" => ("protocolbench.v1.Payloads/Clone", true, "not gzip at all"u8.ToArray(), "3"),
            _ => ("protocolbench.v1.Payloads/Clone", true, Gzip(new byte[64 * 1024 * 1024]), "8"),
        };
        var before = await fixture.CountRowsAsync();
        var service = Service(Protocol.Grpc);

        string? status = null;
        var memory = await PeakMemory.DuringAsync(service, async () => status = (await GrpcCalls.CallAsync(fixture, method, message, Token, compressed)).Status);

        TestContext.Current.TestOutputHelper?.WriteLine($"{name}: grpc-status {status}, memory {memory}");
        Assert.Equal(expected, status);
        Assert.True(memory.GrowthMiB < PeakMemory.BoundMiB, $"{name} grew the gRPC service by {memory}.");
        Assert.DoesNotContain("Error when executing service method", service.Tail());
        Assert.Equal(before, await fixture.CountRowsAsync());
        await AssertAllAliveAsync();
    }

    private static byte[] Gzip(byte[] data)
    {
        using var output = new MemoryStream();
        using (var gzip = new GZipStream(output, CompressionLevel.SmallestSize))
        {
            gzip.Write(data);
        }

        return output.ToArray();
    }

    private ServiceProcess Service(Protocol protocol) => fixture.Services.Processes.Single(p => p.Spec.Protocol == protocol.Service());

    private static async Task<string> ReadAnswerAsync(NetworkStream stream)
    {
        var buffer = new byte[4096];
        var answer = new StringBuilder();
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(Token);
        deadline.CancelAfter(TimeSpan.FromSeconds(20));
        int read;
        while (!answer.ToString().Contains("\"code\"") && (read = await stream.ReadAsync(buffer, deadline.Token)) > 0)
        {
            answer.Append(Encoding.UTF8.GetString(buffer, 0, read));
        }

        return answer.ToString();
    }

    private async Task AssertAllAliveAsync()
    {
        foreach (var protocol in new[] { Protocol.Rest, Protocol.Grpc, Protocol.GraphQL })
        {
            Assert.Equal(int.MaxValue, await fixture.Client(protocol, Transport.Http).GetIntMaxAsync(Token));
        }
    }
}
