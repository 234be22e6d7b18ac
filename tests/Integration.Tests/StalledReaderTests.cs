using System.Diagnostics;
using System.Text;
using ProtocolBench.Integration.Tests.Infrastructure;
using ProtocolBench.Shared.Clients;
using ProtocolBench.Shared.Domain;

namespace ProtocolBench.Integration.Tests;

/// <summary>
/// HTTP/2 readers that never read (fault table row 60): 2 connections × 100 streams with a window of 0, each asking for
/// the PDF or for 1 MiB of control characters. Before the response budget they grew the services by 0.7–1.9 GB; now the service stays within +256 MiB,
/// Kestrel ends the stalled connections, and a reader that does read gets the PDF.
/// </summary>
[Collection(SqliteCollection.Name)]
public sealed class StalledReaderTests(SqliteServices fixture)
{
    private const int Connections = 2;
    private const int StreamsPerConnection = 100;

    private static CancellationToken Token => TestContext.Current.CancellationToken;

    private static readonly (string, string)[] GrpcHeaders = [("content-type", "application/grpc"), ("te", "trailers")];

    private static byte[] GrpcFrame(Google.Protobuf.IMessage message)
    {
        var bytes = Google.Protobuf.MessageExtensions.ToByteArray(message);
        var frame = new byte[5 + bytes.Length];
        System.Buffers.Binary.BinaryPrimitives.WriteUInt32BigEndian(frame.AsSpan(1), (uint)bytes.Length);
        bytes.CopyTo(frame, 5);
        return frame;
    }

    /// <summary>The PDF, and 1 MiB of control characters (6 MiB of JSON: each is sent as \u0001, row 66).</summary>
    public static readonly TheoryData<Protocol, string> Answers = new()
    {
        { Protocol.Rest, "pdf" }, { Protocol.Grpc, "pdf" }, { Protocol.GraphQL, "pdf" },
        { Protocol.Rest, "control characters" }, { Protocol.Grpc, "control characters" }, { Protocol.GraphQL, "control characters" },
    };

    [Theory]
    [MemberData(nameof(Answers))]
    public async Task ReadersThatNeverReadCannotHoldTheServicesMemory(Protocol protocol, string answer)
    {
        var service = fixture.Services.Processes.Single(p => p.Spec.Protocol == protocol);
        // gRPC over h2c on its HTTP port; REST and GraphQL speak h2 only over TLS.
        var baseUri = fixture.Addresses.BaseUri(protocol, protocol == Protocol.Grpc ? Transport.Http : Transport.Https);
        var text = string.Concat(Enumerable.Repeat("%01", Limits.CloneTextMaxLength));
        var count = Limits.CloneOutputMaxChars / Limits.CloneTextMaxLength;
        (string Method, string Path, (string, string)[] Headers, byte[]? Body) request = (protocol, answer) switch
        {
            (Protocol.Rest, "pdf") => ("GET", "/api/payloads/pdf", [], null),
            (Protocol.GraphQL, "pdf") => ("GET", "/graphql?query=%7Bpdf%7Bdata%7D%7D", [], null),
            (Protocol.Grpc, "pdf") => ("POST", "/protocolbench.v1.Payloads/GetPdf", GrpcHeaders, new byte[5]),
            (Protocol.Rest, _) => ("GET", $"/api/payloads/clone?text={text}&count={count}", [], null),
            // POST: the escaped text is longer than Kestrel's 8 KiB request line.
            (Protocol.GraphQL, _) => ("POST", "/graphql", [("content-type", "application/json")], Encoding.UTF8.GetBytes(
                $$$"""{"query":"query($t:String!){clone(text:$t,count:{{{count}}})}","variables":{"t":"{{{string.Concat(Enumerable.Repeat("\\u0001", Limits.CloneTextMaxLength))}}}"}}""")),
            _ => ("POST", "/protocolbench.v1.Payloads/Clone", GrpcHeaders, GrpcFrame(new V1.CloneRequest { Text = new string('\u0001', Limits.CloneTextMaxLength), Count = count })),
        };
        var (method, path, headers, body) = request;

        var readers = new List<StalledHttp2Reader>();
        var stalledFor = Stopwatch.StartNew();
        try
        {
            var memory = await PeakMemory.DuringAsync(service, async () =>
            {
                for (var i = 0; i < Connections; i++)
                {
                    var reader = await StalledHttp2Reader.ConnectAsync(baseUri, fixture.ClientOptions.LoadTrustedCertificate(), Token);
                    readers.Add(reader);
                    await reader.RequestAsync(StreamsPerConnection, method, baseUri, path, headers, body, Token);
                }

                // What the issue measured within 3 s: the answers are built and held while nobody reads them.
                await Task.Delay(TimeSpan.FromSeconds(3), Token);
            });
            TestContext.Current.TestOutputHelper?.WriteLine($"{protocol} {answer}: {Connections} × {StreamsPerConnection} stalled streams, memory {memory}");
            Assert.True(memory.GrowthMiB < PeakMemory.BoundMiB, $"{protocol} grew by {memory} under stalled readers.");

            // Kestrel ends a connection whose reader stays under 240 B/s past the 5 s grace period (flow-control waits count).
            await Task.WhenAll(readers.Select(r => r.ClosedByServer)).WaitAsync(TimeSpan.FromSeconds(30), Token);
            TestContext.Current.TestOutputHelper?.WriteLine($"{protocol}: the server closed the stalled connections after {stalledFor.Elapsed.TotalSeconds:F1} s");
        }
        finally
        {
            foreach (var reader in readers)
            {
                await reader.DisposeAsync();
            }
        }

        // A reader that reads gets the whole PDF, on both transports; the service never restarted.
        Assert.False(service.HasExited);
        foreach (var transport in new[] { Transport.Http, Transport.Https })
        {
            Assert.Equal(Expected.Pdf, await fixture.Client(protocol, transport).GetPdfAsync(Token));
        }
    }
}
