using Google.Protobuf;
using Microsoft.AspNetCore.SignalR.Protocol;

namespace ProtocolBench.Integration.Tests;

/// <summary>
/// Fault table row 93: eleven readers of the PDF at 40 KiB/s each (400 KiB/s in all) held the response budget, every
/// reader its own copy of the same answer, and a normal client's PDF got 504 after 30 s (REST), a timeout at 29 s
/// (GraphQL), and again on the next try. Now the files are written from one copy every caller shares, a piece at a time
/// as each reader takes it, and reserve nothing: beside the eleven, over HTTP/1.1 or each on an HTTP/2 stream given
/// 40 KiB/s of window, a normal client gets the PDF within 5 s on both transports, and the service grows by less than
/// its budget.
/// </summary>
[Collection(SqliteCollection.Name)]
public sealed class FloorReaderTests(SqliteServices fixture)
{
    private const int Readers = 11;
    private const int BytesPerSecond = 40 * 1024;
    private static readonly TimeSpan Bound = TimeSpan.FromSeconds(5);

    public static readonly TheoryData<Protocol, string, string> Cases = new()
    {
        { Protocol.Rest, "/api/payloads/pdf", "http/1.1" },
        { Protocol.Rest, "/api/payloads/pdf/raw", "http/1.1" },
        { Protocol.Rest, "/api/payloads/pdf", "h2" },
        { Protocol.GraphQL, "/graphql?query=%7Bpdf%7Bdata%7D%7D", "http/1.1" },
        { Protocol.GraphQL, "/graphql?query=%7Bpdf%7Bdata%7D%7D", "h2" },
        { Protocol.Grpc, "/protocolbench.v1.Payloads/GetPdf", "h2" },
        { Protocol.SignalR, "json", "websocket" },
        { Protocol.SignalRMessagePack, "messagepack", "websocket" },
    };

    /// <summary>GetPdf as an invocation, id 1, in each hub protocol (MessagePack: [1, {}, "1", "GetPdf", []]).</summary>
    private static readonly byte[] MessagePackGetPdf = [0x95, 0x01, 0x80, 0xa1, (byte)'1', 0xa6, .. "GetPdf"u8, 0x90];

    private static readonly (string, string)[] GrpcHeaders = [("content-type", "application/grpc"), ("te", "trailers")];

    [Theory]
    [MemberData(nameof(Cases))]
    public async Task ANormalClientGetsThePdfBesideElevenReadersAtTheFloor(Protocol protocol, string path, string readersOver)
    {
        var service = fixture.Services.Processes.Single(p => p.Spec.Protocol == protocol.Service());
        // Once unloaded, so that what the service builds once (the shared answers) is not counted as growth.
        Assert.Equal(Expected.Pdf, await fixture.Client(protocol, Transport.Http).GetPdfAsync(Token));

        using var stop = CancellationTokenSource.CreateLinkedTokenSource(Token);
        var h2Readers = new List<StalledHttp2Reader>();
        var http1Readers = new List<Task<long>>();
        var timings = new List<string>();
        try
        {
            var memory = await PeakMemory.DuringAsync(service, async () =>
            {
                for (var i = 0; i < Readers; i++)
                {
                    if (readersOver == "h2")
                    {
                        // gRPC over h2c on its HTTP port; REST and GraphQL speak h2 only over TLS.
                        var grpc = protocol == Protocol.Grpc;
                        var baseUri = fixture.Addresses.BaseUri(protocol, grpc ? Transport.Http : Transport.Https);
                        var reader = await StalledHttp2Reader.ConnectAsync(baseUri, fixture.ClientOptions.LoadTrustedCertificate(), Token);
                        h2Readers.Add(reader);
                        await reader.ReadSlowlyAsync(BytesPerSecond / 10, grpc ? "POST" : "GET", baseUri, path, grpc ? GrpcHeaders : [], grpc ? new byte[5] : null, Token);
                    }
                    else if (readersOver == "websocket")
                    {
                        http1Readers.Add(ReadHubAtTheFloorAsync(path, stop.Token));
                    }
                    else
                    {
                        http1Readers.Add(ReadAtTheFloorAsync(protocol, path, stop.Token));
                    }
                }

                // They hold their answers: long enough for the budget to be full, were they reserved.
                await Task.Delay(TimeSpan.FromSeconds(2), Token);
                foreach (var transport in new[] { Transport.Http, Transport.Https })
                {
                    var took = Stopwatch.StartNew();
                    Assert.Equal(Expected.Pdf, await fixture.Client(protocol, transport).GetPdfAsync(Token));
                    timings.Add($"{transport} {took.Elapsed.TotalSeconds:F3} s");
                    Assert.True(took.Elapsed <= Bound, $"{protocol} over {transport}: the PDF in {took.Elapsed.TotalSeconds:F1} s beside {Readers} readers at 40 KiB/s over {readersOver}.");
                }
            });

            var read = h2Readers.Sum(r => r.BytesRead);
            TestContext.Current.TestOutputHelper?.WriteLine(
                $"{protocol} {path} beside {Readers} readers at 40 KiB/s over {readersOver}: the PDF in {string.Join(", ", timings)}; memory {memory}{(readersOver == "h2" ? $"; the readers read {read:N0} bytes" : "")}");
            Assert.True(memory.GrowthMiB < 48, $"{protocol}: grew by {memory} beside {Readers} readers at the floor, more than the response budget.");
            Assert.True(readersOver != "h2" || read > 0, "The h2 readers read nothing: the test did not test what it says.");
            Assert.All(http1Readers, r => Assert.False(r.IsCompleted, "A reader at the floor was cut off."));
        }
        finally
        {
            await stop.CancelAsync();
            foreach (var reader in h2Readers)
            {
                await reader.DisposeAsync();
            }

            await Task.WhenAll(http1Readers).ContinueWith(_ => { }, TaskScheduler.Default);
        }

        Assert.False(service.HasExited);
    }

    /// <summary>
    /// A file's reply written by reference is the bytes protobuf writes for it (fields in order, the data's length), whole:
    /// the marshaller writes the fields before the data itself (<c>SplicedReplies</c>).
    /// </summary>
    [Theory]
    [InlineData("GetPdf")]
    [InlineData("GetTextFile")]
    public async Task AGrpcFileReplyWrittenByReferenceIsProtobufsOwnBytes(string method)
    {
        var (status, message, _) = await GrpcCalls.CallAsync(fixture, $"protocolbench.v1.Payloads/{method}", [], Token);
        Assert.Equal("0", status);
        var reply = V1.FileReply.Parser.ParseFrom(message);
        Assert.Equal(reply.ToByteArray(), message);
        Assert.Equal(method == "GetPdf" ? Expected.Pdf : Expected.TextFile, reply.Data.ToByteArray());
    }

    /// <summary>
    /// A hub's file answer written by reference is the bytes SignalR's own protocol writes for it (JSON: the file's base64
    /// spliced into SignalR's writer; MessagePack: written around the file by <c>SplicedCompletions</c>), in one WebSocket
    /// message (<c>WholeHubMessages</c>; without it each piece came as a WebSocket message of its own, and Node's client said "Incomplete message").
    /// </summary>
    [Theory]
    [InlineData("json")]
    [InlineData("messagepack")]
    public async Task AHubFileAnswerWrittenByReferenceIsSignalRsOwnBytes(string hubProtocol)
    {
        using var hub = await RawHub.OpenAsync(RawHub.Address(fixture.Addresses.BaseUri(Protocol.SignalR, Transport.Http)), hubProtocol, Token);
        IHubProtocol writer = hubProtocol == "json" ? new JsonHubProtocol() : new MessagePackHubProtocol();
        var expected = new System.Buffers.ArrayBufferWriter<byte>();
        writer.WriteMessage(new CompletionMessage("1", null, new Shared.Domain.Payloads.FilePayload(
            Shared.Domain.Payloads.PayloadFiles.PdfFileName, Shared.Domain.Payloads.PayloadFiles.PdfContentType, Expected.Pdf), hasResult: true), expected);
        if (hubProtocol == "json")
        {
            await hub.SendJsonAsync("{\"type\":1,\"invocationId\":\"1\",\"target\":\"GetPdf\",\"arguments\":[]}", Token);
        }
        else
        {
            await hub.SendMessagePackAsync(MessagePackGetPdf, Token);
        }

        Assert.True(await hub.ReceivedAsync(expected.WrittenSpan.ToArray(), TimeSpan.FromSeconds(20), Token), $"The {hubProtocol} hub's PDF is not the bytes SignalR writes for it.");
        // Written a piece at a time, it still comes as one WebSocket message, as SignalR's JavaScript clients need it.
        Assert.True(hub.CameWholeInOneWebSocketMessage(expected.WrittenSpan.ToArray()), $"The {hubProtocol} hub's PDF came split over more than one WebSocket message.");
    }

    /// <summary>Reads GetPdf's answer at 40 KiB/s over a hub WebSocket (<paramref name="hubProtocol"/>) until stopped.</summary>
    private async Task<long> ReadHubAtTheFloorAsync(string hubProtocol, CancellationToken stop)
    {
        using var pacedSockets = new HttpMessageInvoker(PacedReading.Handler(BytesPerSecond, TimeSpan.FromMinutes(10)));
        using var hub = await RawHub.OpenAsync(RawHub.Address(fixture.Addresses.BaseUri(Protocol.SignalR, Transport.Http)), hubProtocol, stop, pacedSockets);
        if (hubProtocol == "json")
        {
            await hub.SendJsonAsync("{\"type\":1,\"invocationId\":\"1\",\"target\":\"GetPdf\",\"arguments\":[]}", stop);
        }
        else
        {
            await hub.SendMessagePackAsync(MessagePackGetPdf, stop);
        }

        // Bytes no answer holds: it reads until stopped; false when the service closed the socket.
        try
        {
            return await hub.ReceivedAsync("never sent"u8.ToArray(), TimeSpan.FromMinutes(10), stop) ? 0 : throw new IOException("The hub closed the reader's socket.");
        }
        catch (OperationCanceledException) when (stop.IsCancellationRequested)
        {
            return 0;
        }
    }

    /// <summary>Reads the answer at 40 KiB/s over HTTP/1.1 until stopped; the bytes it read.</summary>
    private async Task<long> ReadAtTheFloorAsync(Protocol protocol, string path, CancellationToken stop)
    {
        using var http = new HttpClient(PacedReading.Handler(BytesPerSecond, TimeSpan.FromMinutes(10)))
        {
            BaseAddress = fixture.Addresses.BaseUri(protocol, Transport.Http),
            Timeout = Timeout.InfiniteTimeSpan,
        };
        long read = 0;
        try
        {
            using var response = await http.GetAsync(path, HttpCompletionOption.ResponseHeadersRead, stop);
            response.EnsureSuccessStatusCode();
            await using var body = await response.Content.ReadAsStreamAsync(stop);
            var buffer = new byte[16 * 1024];
            int n;
            while ((n = await body.ReadAsync(buffer, stop)) > 0)
            {
                read += n;
            }
        }
        catch (OperationCanceledException) when (stop.IsCancellationRequested)
        {
        }

        return read;
    }
}
