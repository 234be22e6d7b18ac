using System.Diagnostics;
using ProtocolBench.Integration.Tests.Infrastructure;
using ProtocolBench.Shared.Clients;

namespace ProtocolBench.Integration.Tests;

/// <summary>
/// HTTP/2 readers that never read (fault table row 60): 2 connections × 100 streams with a window of 0, each asking for
/// the PDF. Before the response budget they grew the services by 0.7–1.9 GB; now the service stays within +256 MiB,
/// Kestrel ends the stalled connections, and a reader that does read gets the PDF.
/// </summary>
[Collection(SqliteCollection.Name)]
public sealed class StalledReaderTests(SqliteServices fixture)
{
    private const int Connections = 2;
    private const int StreamsPerConnection = 100;

    private static CancellationToken Token => TestContext.Current.CancellationToken;

    public static readonly TheoryData<Protocol> Protocols = [Protocol.Rest, Protocol.Grpc, Protocol.GraphQL];

    [Theory]
    [MemberData(nameof(Protocols))]
    public async Task ReadersThatNeverReadCannotHoldTheServicesMemory(Protocol protocol)
    {
        var service = fixture.Services.Processes.Single(p => p.Spec.Protocol == protocol);
        // gRPC over h2c on its HTTP port; REST and GraphQL speak h2 only over TLS.
        var baseUri = fixture.Addresses.BaseUri(protocol, protocol == Protocol.Grpc ? Transport.Http : Transport.Https);
        var (method, path, headers, body) = protocol switch
        {
            Protocol.Rest => ("GET", "/api/payloads/pdf", Array.Empty<(string, string)>(), (byte[]?)null),
            Protocol.GraphQL => ("GET", "/graphql?query=%7Bpdf%7Bdata%7D%7D", [], null),
            _ => ("POST", "/protocolbench.v1.Payloads/GetPdf", [("content-type", "application/grpc"), ("te", "trailers")], new byte[5]),
        };

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
            TestContext.Current.TestOutputHelper?.WriteLine($"{protocol}: {Connections} × {StreamsPerConnection} stalled streams, memory {memory}");
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
