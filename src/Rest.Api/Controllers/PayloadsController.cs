using ProtocolBench.Shared.Domain.Payloads;

namespace ProtocolBench.Rest.Api.Controllers;

[ApiController]
[Route("api/payloads")]
public sealed class PayloadsController(PayloadFiles files) : ControllerBase
{
    [HttpGet("clone")]
    [Operation(nameof(Operation.Clone))]
    public CloneResult Clone(string? text, int? count) => new(PayloadOperations.Clone(text, count));

    [HttpGet("int-max")]
    [Operation(nameof(Operation.GetIntMax))]
    public IntMaxResult IntMax() => new(PayloadOperations.IntMax);

    [HttpGet("ints")]
    [Operation(nameof(Operation.GetInts))]
    public IntsResult Ints(int? count) => new(PayloadOperations.Ints(count));

    [HttpGet("sample")]
    [Operation(nameof(Operation.GetSample))]
    public AuthorDto Sample() => PayloadOperations.Sample;

    // The paper's Web API returned files inside JSON, base64-encoded; /raw sends the bytes as they are.
    [HttpGet("text-file")]
    [Operation(nameof(Operation.GetTextFile))]
    public FilePayload TextFile() => files.TextFile;

    [HttpGet("text-file/raw")]
    [Operation(nameof(Operation.GetTextFileRaw))]
    public IActionResult TextFileRaw() => File(files.Text, PayloadFiles.TextContentType);

    [HttpGet("pdf")]
    [Operation(nameof(Operation.GetPdf))]
    public FilePayload Pdf() => files.PdfFile;

    [HttpGet("pdf/raw")]
    [Operation(nameof(Operation.GetPdfRaw))]
    public IActionResult PdfRaw() => File(files.Pdf, PayloadFiles.PdfContentType);
}
