using BenchmarkDotNet.Attributes;
using ProtocolBench.Shared.Clients;

namespace ProtocolBench.Benchmarks.Suite;

/// <summary>Scenarios VI and VII as in the paper: REST and GraphQL send the file as base64 in JSON, gRPC as a bytes field.</summary>
public class Files : ProtocolBenchmark
{
    protected override int WireSamples => 3;

    [Benchmark]
    public async Task<byte[]> TextFile() =>
        Expect.Bytes(await Client.GetTextFileAsync(), BenchmarkContext.Files.Text, "text file");

    [Benchmark]
    public async Task<byte[]> Pdf() =>
        Expect.Bytes(await Client.GetPdfAsync(), BenchmarkContext.Files.Pdf, "PDF");

    protected override async Task VerifyAsync()
    {
        Expect.Sha256(await Client.GetTextFileAsync(), BenchmarkContext.Files.TextSha256, "text file");
        Expect.Sha256(await Client.GetPdfAsync(), BenchmarkContext.Files.PdfSha256, "PDF");
    }
}

/// <summary>
/// The files in each protocol's native binary form, beyond the paper: REST's raw endpoints (application/octet-stream,
/// application/pdf) and gRPC's StreamPdf server stream. gRPC has no separate binary text-file call: its bytes field
/// already is the binary form, so its TextFileBinary cell is the same call as Files.TextFile. GraphQL has no binary form.
/// </summary>
public class BinaryFiles : ProtocolBenchmark
{
    public override IEnumerable<Protocol> Protocols => [Protocol.Rest, Protocol.Grpc];

    protected override int WireSamples => 3;

    [Benchmark]
    public async Task<byte[]> TextFileBinary() =>
        Expect.Bytes(await GetTextFileBinaryAsync(), BenchmarkContext.Files.Text, "text file (binary)");

    [Benchmark]
    public async Task<byte[]> PdfBinary() =>
        Expect.Bytes(await Client.GetPdfBinaryAsync()!, BenchmarkContext.Files.Pdf, "PDF (binary)");

    protected override async Task VerifyAsync()
    {
        Expect.Sha256(await GetTextFileBinaryAsync(), BenchmarkContext.Files.TextSha256, "text file (binary)");
        Expect.Sha256(await Client.GetPdfBinaryAsync()!, BenchmarkContext.Files.PdfSha256, "PDF (binary)");
    }

    private Task<byte[]> GetTextFileBinaryAsync() =>
        Client is RestProtocolClient rest ? rest.GetTextFileBinaryAsync() : Client.GetTextFileAsync();
}
